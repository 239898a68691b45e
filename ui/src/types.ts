/** The workspace API's shapes the pages read (docs/workspace-api.md; the OpenAPI document decides). */

export type Status = "draft" | "pending" | "approved" | "needs_review";
export const STATUSES: readonly Status[] = ["draft", "pending", "needs_review", "approved"];
export const STATUS_LABEL: Record<Status | "missing", string> = {
  missing: "Missing",
  draft: "Draft",
  pending: "Pending",
  needs_review: "Needs review",
  approved: "Approved",
};

export interface LanguageCoverage {
  language: string;
  referenceKeys: number;
  missing: number;
  draft: number;
  pending: number;
  needs_review: number;
  approved: number;
  warnings: number;
}

export interface Project {
  id: string;
  name: string;
  baseLanguage: string;
  languages: string[];
  coverage?: LanguageCoverage[];
  /** What the caller may do in the project (GET /projects/{id}): the role table's answer. */
  can?: { edit: string[]; review: string[]; import: boolean; manageKeys: boolean; manageProject: boolean };
}

export interface Actor {
  kind: "user" | "api_key" | "operator" | "app";
  id?: string;
  name?: string;
}

export interface RecordWarning {
  code: string;
  message: string;
}

export interface TranslationRecord {
  id: string;
  key: string;
  language: string;
  value: string;
  status: Status;
  version: number;
  warnings: RecordWarning[];
  updatedAt: string;
  updatedBy: Actor | null;
}

export interface RecordRow {
  key: string;
  base: TranslationRecord | null;
  records: Record<string, TranslationRecord | null>;
}

export interface RecordCounts {
  total: number;
  missing: number;
  draft: number;
  pending: number;
  needs_review: number;
  approved: number;
  warnings: number;
}

export interface RecordPage {
  data: RecordRow[];
  nextCursor: string | null;
  counts?: RecordCounts;
}

export interface HistoryEntry {
  id: string;
  action: string;
  actor: Actor | null;
  at: string;
  /** null: the change created the record. */
  old: { value: string; status: Status } | null;
  /** null: the change deleted the record. */
  new: { value: string; status: Status } | null;
  version: number | null;
}

export interface Job {
  id: string;
  projectId?: string;
  type?: string;
  status: "pending" | "running" | "completed" | "failed";
  summary?: { created: number; updated: number; deleted?: number } | null;
  errorMessage?: string | null;
  createdAt: string;
  updatedAt: string;
  language?: string;
  progress?: { done: number; total: number } | null;
}

export interface ImportPreview {
  dryRun: boolean;
  importMode: "merge" | "replace";
  language: string;
  rowCount: number;
  toCreate: number;
  toUpdate: number;
  unchanged?: number;
  toDelete?: number;
}

export interface ActivityItem {
  id: string;
  /** import, edit, bulk, key.add, key.rename, key.delete, key.restore, revert, operator. */
  action: string;
  actor: Actor | null;
  jobId?: string | null;
  language: string | null;
  key: string | null;
  detail: Record<string, number | string>;
  at: string;
}

export const actorName = (a: Actor | null | undefined): string =>
  !a ? "unknown" : a.kind === "operator" ? "operator" : (a.name ?? a.kind);

/** Scripts written right to left: their cells and fields get dir="rtl". */
const RTL = new Set(["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "ug", "ur", "yi"]);
export const isRtl = (language: string): boolean => RTL.has(language.split("-")[0]?.toLowerCase() ?? "");
export const dirOf = (language: string): "rtl" | "ltr" => (isRtl(language) ? "rtl" : "ltr");

export const when = (iso?: string | null): string => (iso ? new Date(iso).toLocaleString() : "—");

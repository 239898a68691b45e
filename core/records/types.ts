/**
 * Records: one translation (project, key, language) as people work on it, with its version, its
 * check warnings and who changed it last; and the history every change writes. See
 * docs/workspace-api.md and docs/history.md.
 */
import type { Warning } from "../checks/index.ts";
import type { Actor } from "../principal.ts";
import type { TranslationStatus } from "../types.ts";

export interface RecordState {
  id: string;
  projectId: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  /** 1 when created; grows by one with every change of value or status, by any path. */
  version: number;
  /** The checks against the base value; empty when none (or when written before checks ran). */
  warnings: Warning[];
  updatedAt: string;
  /** null for rows written before history existed. */
  updatedBy: Actor | null;
}

/** What one change did: the history entry's kind. */
export const HISTORY_ACTIONS = [
  "import",
  "edit",
  "bulk",
  "key.add",
  "key.rename",
  "key.delete",
  "key.restore",
  "revert",
  "operator",
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** One change of one record. `old*` null: it was created; `new*` null: it was deleted. */
export interface HistoryEntry {
  id: string;
  recordId: string;
  projectId: string;
  key: string;
  language: string;
  /** The activity item this entry belongs to (a push job's 50,000 entries share one). */
  eventId: string;
  action: HistoryAction;
  actor: Actor;
  jobId: string | null;
  at: string;
  oldValue: string | null;
  oldStatus: TranslationStatus | null;
  newValue: string | null;
  newStatus: TranslationStatus | null;
  /** The record's version after the change (null for a deletion). */
  version: number | null;
}

/** One item of a project's activity feed: one per action, whatever number of records it touched. */
export interface ActivityItem {
  id: string;
  projectId: string;
  action: HistoryAction;
  actor: Actor;
  jobId: string | null;
  /** The language touched, when the action touched one only. */
  language: string | null;
  /** The key touched, when the action touched one only (a rename names the new one). */
  key: string | null;
  /** How many records changed, and action-specific figures (created/updated/deleted, from). */
  detail: Record<string, number | string>;
  at: string;
}

/**
 * One record write within a RecordCommit. `expectVersion` guards it: 0 means the record must not
 * exist; n means it must exist at version n; null writes whatever the record holds now.
 */
export interface RecordWrite {
  id: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  warnings: Warning[];
  expectVersion: number | null;
  /** The value and status the change replaces (null: created); the history entry's old side. */
  previous: { value: string; status: TranslationStatus } | null;
}

/** Changes of one action, applied in one transaction together with their history and activity. */
export interface RecordCommit {
  projectId: string;
  writes: RecordWrite[];
  /** Warnings of other records recomputed because their base value changed (no new version). */
  rechecks: { id: string; warnings: Warning[] }[];
  activity: ActivityItem;
  at: string;
}

export type CommitOutcome =
  | { ok: true }
  /** A write's expected version did not hold: nothing was written. */
  | { ok: false; key: string; language: string };

export interface BrowseFilter {
  missing?: boolean;
  statuses?: TranslationStatus[];
  warnings?: boolean;
  changedSince?: string;
  changedBy?: string;
  /** Already folded (foldForSearch): lower case, accents removed. */
  q?: string;
}

export interface BrowseQuery {
  projectId: string;
  baseLanguage: string;
  /** Returned beside the base (the base itself is always returned). */
  languages: string[];
  /** The language the filters and counts apply to. */
  language: string;
  /** Every language of the project: without a filter, keys of any of them are rows. */
  projectLanguages: string[];
  filter: BrowseFilter;
  /** Keys strictly after this one, in code-point order. */
  after: string | null;
  limit: number;
}

export interface BrowseCounts {
  total: number;
  missing: number;
  draft: number;
  pending: number;
  needs_review: number;
  approved: number;
  warnings: number;
}

export interface BrowseRow {
  key: string;
  base: RecordState | null;
  records: Record<string, RecordState | null>;
}

export interface BrowsePage {
  rows: BrowseRow[];
  /** Whether more keys match after the last row. */
  more: boolean;
  counts: BrowseCounts;
}

/** Per language, over the reference keys (non-empty in the base). */
export interface PeopleCoverage {
  language: string;
  referenceKeys: number;
  missing: number;
  draft: number;
  pending: number;
  needs_review: number;
  approved: number;
  warnings: number;
}

export interface DeletedKey {
  key: string;
  deletedAt: string;
  deletedBy: Actor;
  languages: string[];
}

export interface Paged<T> {
  items: T[];
  /** Pass back to get the next page; null on the last one. */
  next: string | null;
}

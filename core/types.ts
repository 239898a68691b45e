/** Domain records. Dates are ISO-8601 strings in UTC (what every store and the API carry). */
import type { Actor } from "./principal.ts";

export const SCOPES = ["admin", "export:read", "translations:read", "translations:write"] as const;
export type Scope = (typeof SCOPES)[number];

export const TRANSLATION_STATUSES = ["draft", "pending", "approved", "needs_review"] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];
/**
 * The status an import gives its rows: one status for all, or `pending_if_changed` (a person's
 * import where they may not review): new and changed rows `pending`, unchanged rows untouched, as
 * their edits would leave them.
 */
export type ImportStatus = TranslationStatus | "pending_if_changed";

export const IMPORT_MODES = ["merge", "replace"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export interface Organization {
  id: string;
  name: string;
  /** Rows allowed across the organization's projects; null means unlimited. */
  maxTranslations: number | null;
  createdAt: string;
}

export interface Project {
  id: string;
  orgId: string;
  name: string;
  baseLanguage: string;
  /** In the order they were added; the base language is always present. */
  languages: string[];
  deletedAt: string | null;
  createdAt: string;
}

export interface Translation {
  id: string;
  projectId: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  updatedAt: string;
}

export interface ApiKey {
  id: string;
  orgId: string;
  name: string;
  /** SHA-256 of the full key, lowercase hex. The key itself is never stored. */
  hash: string;
  /** `pl_` plus the first 6 hex characters. */
  prefix: string;
  scopes: Scope[];
  rateLimit: number;
  /** Requests served, as last written back (see UsageTracker for the live figure). */
  usageCount: number;
  active: boolean;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AccessToken {
  /** SHA-256 of the opaque token, lowercase hex. */
  hash: string;
  keyId: string;
  scopes: Scope[];
  expiresAt: string;
  createdAt: string;
}

export const JOB_STATUSES = ["pending", "running", "completed", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface ImportSummary {
  created: number;
  updated: number;
  /** Present in replace mode only. */
  deleted?: number;
}

/** What a push job needs to run again after a restart. */
export interface ImportPayload {
  language: string;
  importMode: ImportMode;
  status: ImportStatus;
  /**
   * The pushed JSON as UTF-8 bytes, as received (no text copy is kept); cleared when the job
   * finishes. The runner reads its rows from these bytes.
   */
  content: Uint8Array;
  /** Who pushed: what history names as the author (absent in jobs accepted before history). */
  actor?: Actor;
}

export interface Job {
  id: string;
  orgId: string;
  projectId: string;
  type: "import";
  status: JobStatus;
  /** The current execution attempt. */
  runId: string;
  summary: ImportSummary;
  errorMessage: string | null;
  payload: ImportPayload | null;
  /** Until when the instance running the job holds it; null when nobody does. */
  leaseUntil: string | null;
  /** How many times the job was claimed, i.e. execution attempts started (0 while pending). */
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

export interface EnvironmentOverride {
  projectId: string;
  environment: string;
  language: string;
  key: string;
  value: string;
}

/** One row to write on import. `id` is kept for existing rows, new for created ones. */
export interface TranslationWrite {
  id: string;
  key: string;
  value: string;
  status: TranslationStatus;
}

/** One translation as exports and listings of a known language need it. */
export interface TranslationRow {
  id: string;
  key: string;
  value: string;
  status: TranslationStatus;
}

/**
 * An exported row with the value of its key in the source (base) language; null when that has none.
 * No id: XLIFF, the one format that reads sources, writes none (50,000 fewer strings to read).
 */
export interface SourcedRow extends Omit<TranslationRow, "id"> {
  source: string | null;
}

/** The existing state of one key in one language, as an import compares it. */
export interface ExistingRow {
  id: string;
  value: string;
  status: TranslationStatus;
}

export interface Page<T> {
  items: T[];
  total: number;
}

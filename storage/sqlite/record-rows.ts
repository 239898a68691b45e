import type { Warning } from "../../core/checks/index.ts";
import type { Actor } from "../../core/principal.ts";
import type { ActivityItem, HistoryAction, HistoryEntry, RecordState } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";
import { int } from "./statements.ts";

type Text = string | null;
type Int = number | bigint;

export const RECORD_COLUMNS =
  "id, project_id, language, key, value, status, version, warnings, updated_at, updated_by";

export interface RecordRow {
  id: string;
  project_id: string;
  language: string;
  key: string;
  value: string;
  status: TranslationStatus;
  version: Int;
  warnings: Text;
  updated_at: string;
  updated_by: Text;
}

export const toRecord = (r: RecordRow): RecordState => ({
  id: r.id,
  projectId: r.project_id,
  key: r.key,
  language: r.language,
  value: r.value,
  status: r.status,
  version: int(r.version),
  warnings: r.warnings === null ? [] : (JSON.parse(r.warnings) as Warning[]),
  updatedAt: r.updated_at,
  updatedBy: r.updated_by === null ? null : (JSON.parse(r.updated_by) as Actor),
});

export const HISTORY_COLUMNS = `seq, project_id, record_id, key, language, event_id, action, actor, job_id, at,
  old_value, old_status, new_value, new_status, version`;

export interface HistoryRow {
  seq: Int;
  project_id: string;
  record_id: string;
  key: string;
  language: string;
  event_id: string;
  action: HistoryAction;
  actor: string;
  job_id: Text;
  at: string;
  old_value: Text;
  old_status: TranslationStatus | null;
  new_value: Text;
  new_status: TranslationStatus | null;
  version: Int | null;
}

export const toEntry = (r: HistoryRow): HistoryEntry => ({
  id: String(r.seq),
  recordId: r.record_id,
  projectId: r.project_id,
  key: r.key,
  language: r.language,
  eventId: r.event_id,
  action: r.action,
  actor: JSON.parse(r.actor) as Actor,
  jobId: r.job_id,
  at: r.at,
  oldValue: r.old_value,
  oldStatus: r.old_status,
  newValue: r.new_value,
  newStatus: r.new_status,
  version: r.version === null ? null : int(r.version),
});

export interface ActivityRow {
  seq: Int;
  id: string;
  project_id: string;
  action: HistoryAction;
  actor: string;
  job_id: Text;
  language: Text;
  key: Text;
  detail: string;
  at: string;
}

export const toActivity = (r: ActivityRow): ActivityItem => ({
  id: r.id,
  projectId: r.project_id,
  action: r.action,
  actor: JSON.parse(r.actor) as Actor,
  jobId: r.job_id,
  language: r.language,
  key: r.key,
  detail: JSON.parse(r.detail) as ActivityItem["detail"],
  at: r.at,
});

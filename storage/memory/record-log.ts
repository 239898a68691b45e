import type { Warning } from "../../core/checks/index.ts";
import type { Actor } from "../../core/principal.ts";
import type { ActivityItem, HistoryEntry, RecordState } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";
import { type TranslationTable, writableLanguageRows } from "./translation-table.ts";

export interface DeletedRecord extends RecordState {
  deletedAt: string;
  deletedBy: Actor;
}

/** History, activity and deleted keys of the memory store; arrays in the order they were written. */
export interface RecordLog {
  history: HistoryEntry[];
  activity: ActivityItem[];
  deleted: DeletedRecord[];
}

export const createRecordLog = (): RecordLog => ({ history: [], activity: [], deleted: [] });

export const copyRecord = (r: RecordState): RecordState => ({
  ...r,
  warnings: r.warnings.map((w) => ({ ...w })),
  updatedBy: r.updatedBy && { ...r.updatedBy },
});

/** Upserts by (project, language, key): an existing record keeps its id and gains a version. */
export function upsertRecord(
  table: TranslationTable,
  w: {
    id: string;
    projectId: string;
    language: string;
    key: string;
    value: string;
    status: TranslationStatus;
    warnings: Warning[];
    actor: Actor | null;
  },
  at: string,
): RecordState {
  const rows = writableLanguageRows(table, w.projectId, w.language);
  const existing = rows.get(w.key);
  const record: RecordState = {
    id: existing?.id ?? w.id,
    projectId: w.projectId,
    key: w.key,
    language: w.language,
    value: w.value,
    status: w.status,
    version: (existing?.version ?? 0) + 1,
    warnings: w.warnings.map((x) => ({ ...x })),
    updatedAt: at,
    updatedBy: w.actor && { ...w.actor },
  };
  rows.set(w.key, record);
  return record;
}

export function addHistory(log: RecordLog, e: Omit<HistoryEntry, "id">): void {
  log.history.push({ id: String(log.history.length + 1), ...e });
}

/** The history entry's fields an action shares across its records. */
export const entryOf = (
  a: ActivityItem,
  record: { id: string; projectId: string; key: string; language: string },
) => ({
  recordId: record.id,
  projectId: record.projectId,
  key: record.key,
  language: record.language,
  eventId: a.id,
  action: a.action,
  actor: a.actor,
  jobId: a.jobId,
  at: a.at,
});

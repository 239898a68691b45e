import type { Warning } from "../../core/checks/index.ts";
import type { Actor } from "../../core/principal.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { ActivityItem, HistoryEntry } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";
import { int, type Statements } from "./statements.ts";

type Text = string | null;

export const warningsJson = (w: readonly Warning[] | undefined): Text =>
  w === undefined || w.length === 0 ? null : JSON.stringify(w);
export const actorJson = (a: Actor | null): Text => (a === null ? null : JSON.stringify(a));
export const actorUser = (a: Actor | null): Text => (a?.kind === "user" ? a.userId : null);

/** One row to upsert by (project, language, key); an existing row keeps its id and gains a version. */
export interface RowWrite {
  id: string;
  projectId: string;
  language: string;
  key: string;
  value: string;
  status: TranslationStatus;
  warnings: Text;
  actor: Actor | null;
}

export type NewEntry = Omit<HistoryEntry, "id">;

/**
 * The statements every path that changes records shares (the import job, workspace edits, keys),
 * so each writes versions, search text, history and activity the same way. Callers run them
 * inside their own transaction.
 */
export function createRecordWriter(s: Statements) {
  const upsert = s.prepare<
    { version: number | bigint },
    [string, string, string, string, string, string, string, Text, Text, Text, Text]
  >(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
       updated_by, updated_by_user, search, filled, flagged)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?5 <> '', ?8 IS NOT NULL)
     ON CONFLICT (project_id, language, key) DO UPDATE SET value = excluded.value, status = excluded.status,
       updated_at = excluded.updated_at, version = version + 1, warnings = excluded.warnings,
       updated_by = excluded.updated_by, updated_by_user = excluded.updated_by_user, search = excluded.search,
       filled = excluded.filled, flagged = excluded.flagged
     RETURNING version`,
  );
  const history = s.prepare<
    never,
    [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      Text,
      string,
      Text,
      Text,
      Text,
      Text,
      number | null,
    ]
  >(
    // Chained to the record's last entry (migration 13): on its row, or, while the key is
    // deleted, on its deleted_records row (a restore's row has none yet and takes it from there).
    `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version, prev_seq)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,
       COALESCE((SELECT history_seq FROM translations WHERE id = ?2),
         (SELECT history_seq FROM deleted_records WHERE id = ?2)))`,
  );
  const head = s.prepare<never, [string]>(
    "UPDATE translations SET history_seq = last_insert_rowid() WHERE id = ?",
  );
  const deletedHead = s.prepare<never, [string]>(
    "UPDATE deleted_records SET history_seq = last_insert_rowid() WHERE id = ?",
  );
  const activity = s.prepare<never, [string, string, string, string, Text, Text, Text, string, string]>(
    `INSERT INTO activity (id, project_id, action, actor, job_id, language, key, detail, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setWarnings = s.prepare<never, [Text, string]>(
    "UPDATE translations SET warnings = ?1, flagged = ?1 IS NOT NULL WHERE id = ?2",
  );

  return {
    /** The record's version after the write. */
    upsert(w: RowWrite, at: string): number {
      const row = upsert.get(
        w.id,
        w.projectId,
        w.language,
        w.key,
        w.value,
        w.status,
        at,
        w.warnings,
        actorJson(w.actor),
        actorUser(w.actor),
        storedSearchText(w.key, w.value),
      );
      return int(row?.version ?? 1);
    },
    history(e: NewEntry): void {
      history.run(
        e.projectId,
        e.recordId,
        e.key,
        e.language,
        e.eventId,
        e.action,
        JSON.stringify(e.actor),
        e.jobId,
        e.at,
        e.oldValue,
        e.oldStatus,
        e.newValue,
        e.newStatus,
        e.version,
      );
      head.run(e.recordId);
      deletedHead.run(e.recordId);
    },
    activity(a: ActivityItem): void {
      activity.run(
        a.id,
        a.projectId,
        a.action,
        JSON.stringify(a.actor),
        a.jobId,
        a.language,
        a.key,
        JSON.stringify(a.detail),
        a.at,
      );
    },
    setWarnings(id: string, warnings: readonly Warning[]): void {
      setWarnings.run(warningsJson(warnings), id);
    },
  };
}

export type RecordWriter = ReturnType<typeof createRecordWriter>;

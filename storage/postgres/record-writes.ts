import type { PendingQuery, Row, TransactionSql } from "postgres";
import type { Warning } from "../../core/checks/index.ts";
import type { Actor } from "../../core/principal.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { ActivityItem } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";

type PendingSql = PendingQuery<Row[]>;

export const warningsJson = (w: readonly Warning[] | undefined): string | null =>
  w === undefined || w.length === 0 ? null : JSON.stringify(w);
export const actorUser = (a: Actor | null): string | null => (a?.kind === "user" ? a.userId : null);

export interface BulkWrite {
  id: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  warnings: string | null;
  old: { value: string; status: TranslationStatus } | null;
}

/** Who and what the history entries of one action share. */
export interface EntryContext {
  projectId: string;
  actor: Actor | null;
  eventId: string;
  action: string;
  jobId: string | null;
  at: string;
  /** Whether to write history entries (imports of old callers write none). */
  history: boolean;
}

/**
 * Upserts every write in one statement (an existing row keeps its id and gains a version) and, in
 * the same statement, writes one history entry per write from what the upsert returned: the
 * values travel once, and no second pass reads the records back by id.
 */
export async function upsertWrites(
  tx: TransactionSql,
  ctx: EntryContext,
  writes: BulkWrite[],
): Promise<void> {
  if (writes.length === 0) return;
  const actor = ctx.actor === null ? null : JSON.stringify(ctx.actor);
  const col = <T>(f: (w: BulkWrite) => T) => tx.array(writes.map(f) as string[]);
  const upsert = (from: PendingSql) => tx`
    INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
                              updated_by, updated_by_user, search)
    SELECT u.id, ${ctx.projectId}, u.language, u.key, u.value, u.status, ${ctx.at}::timestamptz, 1, u.warnings,
           ${actor}, ${actorUser(ctx.actor)}, u.search
    FROM ${from}
    ON CONFLICT (project_id, language, parlance_key_digest(key)) DO UPDATE
    SET value = excluded.value, status = excluded.status, updated_at = excluded.updated_at,
        version = translations.version + 1, warnings = excluded.warnings, updated_by = excluded.updated_by,
        updated_by_user = excluded.updated_by_user, search = excluded.search`;
  const arrays = tx`
    unnest(${col((w) => w.id)}::text[], ${col((w) => w.language)}::text[], ${col((w) => w.key)}::text[],
           ${col((w) => w.value)}::text[], ${col((w) => w.status)}::text[], ${col((w) => w.warnings)}::text[],
           ${col((w) => storedSearchText(w.key, w.value))}::text[]`;
  if (!ctx.history) {
    await tx`${upsert(tx`${arrays}) AS u(id, language, key, value, status, warnings, search)`)}`;
    return;
  }
  // Joined by (language, key): a write whose key another write created meanwhile lands on that
  // record, whose id the upsert returns.
  await tx`
    WITH u AS MATERIALIZED (
      SELECT * FROM ${arrays}, ${col((w) => w.old?.value ?? null)}::text[], ${col((w) => w.old?.status ?? null)}::text[])
        WITH ORDINALITY AS u(id, language, key, value, status, warnings, search, old_value, old_status, n)
    ), done AS (
      ${upsert(tx`u`)}
      RETURNING id, language, key, value, status, version
    )
    INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
                                old_value, old_status, new_value, new_status, version)
    SELECT ${ctx.projectId}, d.id, d.key, d.language, ${ctx.eventId}, ${ctx.action}, ${actor}, ${ctx.jobId},
           ${ctx.at}::timestamptz, u.old_value, u.old_status, d.value, d.status, d.version
    FROM done d JOIN u ON u.language = d.language AND u.key = d.key
    ORDER BY u.n`;
}

/** One history entry per deleted record (new side null). */
export async function deletionEntries(
  tx: TransactionSql,
  ctx: EntryContext,
  rows: { id: string; key: string; language: string; value: string; status: string }[],
): Promise<void> {
  if (rows.length === 0 || !ctx.history) return;
  const col = (f: (r: (typeof rows)[number]) => string) => tx.array(rows.map(f));
  await tx`
    INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
                                old_value, old_status, new_value, new_status, version)
    SELECT ${ctx.projectId}, u.id, u.key, u.language, ${ctx.eventId}, ${ctx.action},
           ${JSON.stringify(ctx.actor)}, ${ctx.jobId}, ${ctx.at}::timestamptz, u.value, u.status, NULL, NULL, NULL
    FROM unnest(${col((r) => r.id)}::text[], ${col((r) => r.key)}::text[], ${col((r) => r.language)}::text[],
                ${col((r) => r.value)}::text[], ${col((r) => r.status)}::text[]) WITH ORDINALITY
         AS u(id, key, language, value, status, n)
    ORDER BY u.n`;
}

export async function setWarnings(
  tx: TransactionSql,
  rechecks: { id: string; warnings: Warning[] }[],
): Promise<void> {
  if (rechecks.length === 0) return;
  await tx`
    UPDATE translations t SET warnings = u.warnings
    FROM unnest(${tx.array(rechecks.map((r) => r.id))}::text[],
                ${tx.array(rechecks.map((r) => warningsJson(r.warnings)) as string[])}::text[]) AS u(id, warnings)
    WHERE t.id = u.id`;
}

export async function insertActivity(tx: TransactionSql, a: ActivityItem): Promise<void> {
  await tx`
    INSERT INTO activity (id, project_id, action, actor, job_id, language, key, detail, at)
    VALUES (${a.id}, ${a.projectId}, ${a.action}, ${JSON.stringify(a.actor)}, ${a.jobId}, ${a.language}, ${a.key},
            ${JSON.stringify(a.detail)}, ${a.at}::timestamptz)`;
}

import type { TransactionSql } from "postgres";
import type { Warning } from "../../core/checks/index.ts";
import type { Actor } from "../../core/principal.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { ActivityItem } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";

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
 * Upserts every write with a constant number of statements (an existing row keeps its id and
 * gains a version), then writes one history entry per write, reading each new version back.
 */
export async function upsertWrites(
  tx: TransactionSql,
  ctx: EntryContext,
  writes: BulkWrite[],
): Promise<void> {
  if (writes.length === 0) return;
  const actor = ctx.actor === null ? null : JSON.stringify(ctx.actor);
  const col = <T>(f: (w: BulkWrite) => T) => writes.map(f);
  await tx`
    INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
                              updated_by, updated_by_user, search)
    SELECT u.id, ${ctx.projectId}, u.language, u.key, u.value, u.status, ${ctx.at}::timestamptz, 1, u.warnings,
           ${actor}, ${actorUser(ctx.actor)}, u.search
    FROM unnest(${tx.array(col((w) => w.id))}::text[],
                ${tx.array(col((w) => w.language))}::text[],
                ${tx.array(col((w) => w.key))}::text[],
                ${tx.array(col((w) => w.value))}::text[],
                ${tx.array(col((w) => w.status))}::text[],
                ${tx.array(col((w) => w.warnings) as string[])}::text[],
                ${tx.array(col((w) => storedSearchText(w.key, w.value)) as string[])}::text[])
         AS u(id, language, key, value, status, warnings, search)
    ON CONFLICT (project_id, language, parlance_key_digest(key)) DO UPDATE
    SET value = excluded.value, status = excluded.status, updated_at = excluded.updated_at,
        version = translations.version + 1, warnings = excluded.warnings, updated_by = excluded.updated_by,
        updated_by_user = excluded.updated_by_user, search = excluded.search`;
  if (!ctx.history) return;
  await tx`
    INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
                                old_value, old_status, new_value, new_status, version)
    SELECT ${ctx.projectId}, t.id, t.key, t.language, ${ctx.eventId}, ${ctx.action},
           ${actor}, ${ctx.jobId}, ${ctx.at}::timestamptz, u.old_value, u.old_status, t.value, t.status, t.version
    FROM unnest(${tx.array(col((w) => w.id))}::text[],
                ${tx.array(col((w) => w.old?.value ?? null) as string[])}::text[],
                ${tx.array(col((w) => w.old?.status ?? null) as string[])}::text[]) WITH ORDINALITY
         AS u(id, old_value, old_status, n)
    JOIN translations t ON t.id = u.id
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

import type { TransactionSql } from "postgres";
import { storedSearchText } from "../../core/records/fold.ts";
import { isUniqueViolation } from "./convert.ts";
import { copyField, copyIn } from "./copy-in.ts";
import { actorUser, type BulkWrite, type EntryContext } from "./record-writes.ts";

/**
 * Creates the records an import found absent, and their history entries, with COPY: Postgres
 * stores COPY's rows a page at a time (one log record per page, not per row), and no statement
 * hands the written rows back to be joined with their entries. For a push of 50,000 new rows this
 * took a third less of the database's time than one upsert statement with its history
 * (docs/benchmarks.md, "Postgres push, fourth pass").
 *
 * Each created record is version 1 of the id the plan gave it, so its entry needs nothing the
 * database decides. When another writer created one of these keys after the import read the
 * language, the unique index refuses the COPY: everything here is undone to its savepoint and
 * false returned, for the caller to upsert the rows instead (which lands them on that record).
 */
export async function copyCreations(
  tx: TransactionSql,
  ctx: EntryContext,
  writes: BulkWrite[],
): Promise<boolean> {
  if (writes.length === 0) return true;
  const actor = ctx.actor === null ? null : JSON.stringify(ctx.actor);
  const record = (w: BulkWrite) =>
    line([
      w.id,
      ctx.projectId,
      w.language,
      w.key,
      w.value,
      w.status,
      ctx.at,
      "1",
      w.warnings,
      actor,
      actorUser(ctx.actor),
      storedSearchText(w.key, w.value),
    ]);
  const entry = (w: BulkWrite) =>
    line([
      ctx.projectId,
      w.id,
      w.key,
      w.language,
      ctx.eventId,
      ctx.action,
      JSON.stringify(ctx.actor),
      ctx.jobId,
      ctx.at,
      null,
      null,
      w.value,
      w.status,
      "1",
    ]);
  try {
    await tx.savepoint(async (sp) => {
      await copyIn(
        sp`COPY translations (id, project_id, language, key, value, status, updated_at, version, warnings,
                              updated_by, updated_by_user, search) FROM STDIN`,
        each(writes, record),
      );
      if (!ctx.history) return;
      await copyIn(
        sp`COPY record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
                                old_value, old_status, new_value, new_status, version) FROM STDIN`,
        each(writes, entry),
      );
    });
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

function* each(writes: BulkWrite[], f: (w: BulkWrite) => string): Generator<string> {
  for (const w of writes) yield f(w);
}

const line = (fields: (string | null)[]) => `${fields.map(copyField).join("\t")}\n`;

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
  // Escaped once: the constants of every line, and each key and value (both tables carry them).
  const [project, at, event, action, job] = [ctx.projectId, ctx.at, ctx.eventId, ctx.action, ctx.jobId].map(
    copyField,
  );
  const actor = copyField(ctx.actor === null ? null : JSON.stringify(ctx.actor));
  const user = copyField(actorUser(ctx.actor));
  const keys = writes.map((w) => copyField(w.key));
  const values = writes.map((w) => copyField(w.value));
  const records = function* () {
    for (const [i, w] of writes.entries()) {
      const search = copyField(storedSearchText(w.key, w.value));
      yield `${copyField(w.id)}\t${project}\t${copyField(w.language)}\t${keys[i]}\t${values[i]}\t${copyField(w.status)}\t${at}\t1\t${copyField(w.warnings)}\t${actor}\t${user}\t${search}\n`;
    }
  };
  const entries = function* () {
    for (const [i, w] of writes.entries()) {
      yield `${project}\t${copyField(w.id)}\t${keys[i]}\t${copyField(w.language)}\t${event}\t${action}\t${actor}\t${job}\t${at}\t\\N\t\\N\t${values[i]}\t${copyField(w.status)}\t1\n`;
    }
  };
  try {
    await tx.savepoint(async (sp) => {
      await copyIn(
        sp`COPY translations (id, project_id, language, key, value, status, updated_at, version, warnings,
                              updated_by, updated_by_user, search) FROM STDIN`,
        records(),
      );
      if (!ctx.history) return;
      await copyIn(
        sp`COPY record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
                                old_value, old_status, new_value, new_status, version) FROM STDIN`,
        entries(),
      );
    });
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

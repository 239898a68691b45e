import type { ImportCommit } from "../../core/ports.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { TranslationWrite } from "../../core/types.ts";
import { actorJson, actorUser, warningsJson } from "./record-writes.ts";
import type { Statements } from "./statements.ts";

/**
 * Rows per statement. Each chunk of new rows travels as one JSON array that SQLite reads with
 * json_each: one bind and one step per chunk instead of per row, which halves the cost of a
 * 50,000-row import (bun:sqlite's per-statement overhead, not the B-tree work, dominated the per-row
 * upserts). Rows that exist are updated one statement each instead: an upsert tries the insert
 * first, and for updates that costs more than the statements (a third less for a 10 % push).
 * Small enough that a chunk takes a few milliseconds: the commit may yield between chunks.
 */
export const IMPORT_CHUNK_ROWS = 500;

type Text = string | null;
/** project, record id, key, language */
type Row = [string, string, string, string];
/** activity id, actor, job id, time */
type Event = [string, string, Text, string];

/**
 * The writes of an import job, in bulk: upserts, deletes, their history entries and the rechecked
 * warnings. `steps` writes one chunk per step, inside the caller's transaction, so a caller may
 * give the event loop back between steps (storage/sqlite/jobs.ts).
 */
export function createImportWriter(s: Statements) {
  // `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the INSERT, not to a join.
  const upsert = s.prepare<never, [string, string, string, Text, Text, string]>(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
       updated_by, updated_by_user, search, filled, flagged)
     SELECT j.value ->> 0, ?1, ?2, j.value ->> 1, j.value ->> 2, j.value ->> 3, ?3, 1, j.value ->> 4,
       ?4, ?5, j.value ->> 5, (j.value ->> 2) <> '', (j.value ->> 4) IS NOT NULL
     FROM json_each(?6) j WHERE true
     ON CONFLICT (project_id, language, key) DO UPDATE SET value = excluded.value, status = excluded.status,
       updated_at = excluded.updated_at, version = version + 1, warnings = excluded.warnings,
       updated_by = excluded.updated_by, updated_by_user = excluded.updated_by_user, search = excluded.search,
       filled = excluded.filled, flagged = excluded.flagged`,
  );
  // One entry per write, in the order of the writes; the version is read back from the record
  // (by key: a row that existed keeps its own id whatever id the write proposed).
  const entries = s.prepare<never, [string, string, string, string, Text, string, string]>(
    `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version)
     SELECT ?1, t.id, t.key, ?2, ?3, 'import', ?4, ?5, ?6, j.value ->> 6, j.value ->> 7, t.value, t.status, t.version
     FROM json_each(?7) j CROSS JOIN translations t
       ON t.project_id = ?1 AND t.language = ?2 AND t.key = j.value ->> 1
     ORDER BY j.key`,
  );
  const update = s.prepare<
    { id: string; version: number | bigint },
    [string, string, string, string, string, string, Text, Text, Text, Text]
  >(
    `UPDATE translations SET value = ?4, status = ?5, updated_at = ?6, version = version + 1, warnings = ?7,
       updated_by = ?8, updated_by_user = ?9, search = ?10, filled = ?4 <> '', flagged = ?7 IS NOT NULL
     WHERE project_id = ?1 AND language = ?2 AND key = ?3
     RETURNING id, version`,
  );
  // The entry of one updated row, from what its UPDATE returned.
  const entry = s.prepare<never, [...Row, ...Event, string, string, string, string, number | bigint]>(
    `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version)
     VALUES (?1, ?2, ?3, ?4, ?5, 'import', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
  );
  const remove = s.prepare<never, [string, string, string]>(
    `DELETE FROM translations
     WHERE project_id = ?1 AND language = ?2 AND id IN (SELECT value FROM json_each(?3))`,
  );
  const deletions = s.prepare<never, [string, string, string, string, Text, string, string]>(
    `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version)
     SELECT ?1, j.value ->> 0, j.value ->> 1, ?2, ?3, 'import', ?4, ?5, ?6, j.value ->> 2, j.value ->> 3,
       NULL, NULL, NULL
     FROM json_each(?7) j ORDER BY j.key`,
  );
  const rewarn = s.prepare<never, [string]>(
    `UPDATE translations SET warnings = j.value ->> 1, flagged = (j.value ->> 1) IS NOT NULL
     FROM json_each(?1) j WHERE translations.id = j.value ->> 0`,
  );

  return {
    *steps(c: ImportCommit, now: string): Generator<void, void> {
      const a = c.audit;
      const actor = actorJson(a?.actor ?? null);
      const user = actorUser(a?.actor ?? null);
      const event = [a?.activity.id ?? "", a ? JSON.stringify(a.actor) : "", a?.jobId ?? null, now] as const;
      // Deletes first: a replace never deletes a key it also writes, so the order only matters to
      // a caller's mistake, and this one leaves the written row in place.
      for (let i = 0; i < c.deleteIds.length; i += IMPORT_CHUNK_ROWS) {
        const ids = c.deleteIds.slice(i, i + IMPORT_CHUNK_ROWS);
        remove.run(c.projectId, c.language, JSON.stringify(ids));
        if (!a) continue;
        const rows = ids.map((id, n) => {
          const old = a.deleted[i + n];
          return [id, old?.key ?? "", old?.value ?? null, old?.status ?? null];
        });
        deletions.run(c.projectId, c.language, ...event, JSON.stringify(rows));
        yield;
      }
      const chunk = (from: number, to: number) => {
        const rows = c.writes.slice(from, to).map((w, n) => {
          const old = a?.previous[from + n] ?? null;
          return [
            w.id,
            w.key,
            w.value,
            w.status,
            warningsJson(a?.warnings[from + n]),
            storedSearchText(w.key, w.value),
            old?.value ?? null,
            old?.status ?? null,
          ];
        });
        const json = JSON.stringify(rows);
        upsert.run(c.projectId, c.language, now, actor, user, json);
        if (a) entries.run(c.projectId, c.language, ...event, json);
      };
      for (let i = 0; i < c.writes.length; ) {
        const end = Math.min(i + IMPORT_CHUNK_ROWS, c.writes.length);
        if (a?.previous[i]) {
          // Rows that existed when the job planned: an UPDATE by key each, cheaper than the
          // upsert's attempted insert, and its RETURNING gives the entry what the join would.
          for (; i < end && a.previous[i]; i++) {
            const w = c.writes[i] as TranslationWrite;
            const old = a.previous[i] as { value: string; status: string };
            const search = storedSearchText(w.key, w.value);
            const warnings = warningsJson(a.warnings[i]);
            const row = update.get(
              c.projectId,
              c.language,
              w.key,
              w.value,
              w.status,
              now,
              warnings,
              actor,
              user,
              search,
            );
            // Deleted since the job planned: written as a new row, as the upsert would.
            if (!row) chunk(i, i + 1);
            else
              entry.run(
                c.projectId,
                row.id,
                w.key,
                c.language,
                ...event,
                old.value,
                old.status,
                w.value,
                w.status,
                row.version,
              );
          }
        } else {
          const from = i;
          while (i < end && !a?.previous[i]) i++;
          chunk(from, i);
        }
        yield;
      }
      if (!a) return;
      for (let i = 0; i < a.rechecks.length; i += IMPORT_CHUNK_ROWS) {
        const rows = a.rechecks.slice(i, i + IMPORT_CHUNK_ROWS).map((r) => [r.id, warningsJson(r.warnings)]);
        rewarn.run(JSON.stringify(rows));
        yield;
      }
    },
  };
}

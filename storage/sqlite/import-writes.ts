import type { ImportCommit } from "../../core/ports.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import { actorJson, actorUser, warningsJson } from "./record-writes.ts";
import type { Statements } from "./statements.ts";

/**
 * Rows per statement. Each chunk travels as one JSON array that SQLite reads with json_each: one
 * bind and one step per chunk instead of per row, which halves the cost of a 50,000-row import
 * (bun:sqlite's per-statement overhead, not the B-tree work, dominated the per-row upserts).
 * Small enough that a chunk takes a few milliseconds: the commit may yield between chunks.
 */
export const IMPORT_CHUNK_ROWS = 500;

type Text = string | null;

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
      for (let i = 0; i < c.writes.length; i += IMPORT_CHUNK_ROWS) {
        const rows = c.writes.slice(i, i + IMPORT_CHUNK_ROWS).map((w, n) => {
          const old = a?.previous[i + n] ?? null;
          return [
            w.id,
            w.key,
            w.value,
            w.status,
            warningsJson(a?.warnings[i + n]),
            storedSearchText(w.key, w.value),
            old?.value ?? null,
            old?.status ?? null,
          ];
        });
        const json = JSON.stringify(rows);
        upsert.run(c.projectId, c.language, now, actor, user, json);
        if (a) entries.run(c.projectId, c.language, ...event, json);
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

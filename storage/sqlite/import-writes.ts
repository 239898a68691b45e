import type { Statement } from "bun:sqlite";
import type { ImportCommit } from "../../core/ports.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { TranslationWrite } from "../../core/types.ts";
import type { EachPlan, ImportThread } from "./import-thread.ts";
import { actorJson, actorUser, warningsJson } from "./record-writes.ts";
import type { Statements } from "./statements.ts";

/**
 * Rows per step: a step takes a few milliseconds, and the commit may yield between steps. New
 * rows go in multi-row `VALUES` statements (`upsertBatches`); rows that exist are updated one
 * statement each instead: an upsert tries the insert first, and for updates that costs more than
 * the statements (a third less for a 10 % push).
 */
export const IMPORT_CHUNK_ROWS = 500;

type Text = string | null;
type Int = number | bigint;
/** project, record id, key, language */
type Row = [string, string, string, string];
/** activity id, actor, job id, time */
type Event = [string, string, Text, string];

/**
 * The seq the next history entry gets: entries are only appended (SQLite gives a new rowid one past
 * the largest), so a statement that writes `n` entries numbers them NEXT_SEQ + 0 … n − 1 itself and
 * sets each record's `history_seq` to its entry's in the same write (migration 13: the chain).
 */
const NEXT_SEQ = "(SELECT COALESCE(max(seq), 0) + 1 FROM record_history)";

/**
 * One row that exists, updated by key; RETURNING gives its entry what a join would: the entry's
 * seq, and in `history_prev` the record's last entry before it (RETURNING sees only new values).
 */
const UPDATE_SQL = `UPDATE translations SET value = ?4, status = ?5, updated_at = ?6, version = version + 1, warnings = ?7,
       updated_by = ?8, updated_by_user = ?9, search = ?10, filled = ?4 <> '', flagged = ?7 IS NOT NULL,
       history_prev = history_seq, history_seq = ${NEXT_SEQ}
     WHERE project_id = ?1 AND language = ?2 AND key = ?3
     RETURNING id, version, history_prev, history_seq`;

/** The entry of one updated row, from what its UPDATE returned (its seq and its predecessor's). */
const ENTRY_SQL = `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version, prev_seq, seq)
     VALUES (?1, ?2, ?3, ?4, ?5, 'import', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)`;

/**
 * The same writes on the import thread (`ImportThread.each`): a chunk's rows that exist go in one
 * message, and the thread runs per row the UPDATE and its entry, or for a row deleted since the
 * job planned the one-row insert and entry. Indexes: the shared parameters (project 0, language 1,
 * time 2, actor 3, user 4, the event 5–8), the row's (key 9, value 10, status 11, warnings 12,
 * search 13, old value 14, old status 15, id 16, the write's index 17, its place in a one-row
 * batch 18, always 0), what UPDATE returned (id 19, version 20, history_prev 21, history_seq 22).
 */
const UPDATE_EACH: EachPlan = {
  first: { sql: UPDATE_SQL, params: [0, 1, 9, 10, 11, 2, 12, 3, 4, 13] },
  found: [{ sql: ENTRY_SQL, params: [0, 19, 9, 1, 5, 6, 7, 8, 14, 15, 10, 11, 20, 21, 22] }],
  missing: [
    { sql: upsertSql(1), params: [0, 1, 2, 3, 4, 16, 9, 10, 11, 12, 13, 18] },
    { sql: entriesSql(1), params: [0, 1, 5, 6, 7, 8, 17, 9, 14, 15] },
  ],
};

/**
 * The writes of an import job, in bulk: upserts, deletes, their history entries and the rechecked
 * warnings. `steps` writes one chunk per step, inside the caller's transaction, so a caller may
 * give the event loop back between steps (storage/sqlite/jobs.ts). With `each` (the import thread,
 * whose statements return nothing here) rows that exist go a chunk at a time by UPDATE_EACH.
 */
export function createImportWriter(s: Statements, each?: ImportThread["each"]) {
  const batches = upsertBatches(s);
  const update = s.prepare<
    { id: string; version: number | bigint; history_prev: Int | null; history_seq: Int },
    [string, string, string, string, string, string, Text, Text, Text, Text]
  >(UPDATE_SQL);
  const entry = s.prepare<never, [...Row, ...Event, string, string, string, string, Int, Int | null, Int]>(
    ENTRY_SQL,
  );
  const remove = s.prepare<never, [string, string, string]>(
    `DELETE FROM translations
     WHERE project_id = ?1 AND language = ?2 AND id IN (SELECT value FROM json_each(?3))`,
  );
  // Written before the rows go, to chain each entry to its record's last; a record gone whole
  // keeps its last entry's seq in record_history_gone, where its history is found from then on.
  const deletions = s.prepare<never, [string, string, string, string, Text, string, string]>(
    `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version, prev_seq)
     SELECT ?1, j.value ->> 0, j.value ->> 1, ?2, ?3, 'import', ?4, ?5, ?6, j.value ->> 2, j.value ->> 3,
       NULL, NULL, NULL, t.history_seq
     FROM json_each(?7) j LEFT JOIN translations t ON t.id = j.value ->> 0 ORDER BY j.key`,
  );
  /** The heads of the records whose entries `deletions` just appended (the last `n` entries). */
  const gone = s.prepare<never, [number]>(
    `INSERT OR REPLACE INTO record_history_gone (record_id, seq)
     SELECT record_id, seq FROM record_history WHERE seq > (SELECT max(seq) FROM record_history) - ?1`,
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
        if (a) {
          const rows = ids.map((id, n) => {
            const old = a.deleted[i + n];
            return [id, old?.key ?? "", old?.value ?? null, old?.status ?? null];
          });
          deletions.run(c.projectId, c.language, ...event, JSON.stringify(rows));
          gone.run(rows.length);
        }
        remove.run(c.projectId, c.language, JSON.stringify(ids));
        if (!a) continue;
        yield;
      }
      /** New rows (by index into the writes), in batches of the multi-row statements. */
      const insertNew = (indexes: readonly number[]) => {
        for (let i = 0; i < indexes.length; ) {
          const n = batchSize(indexes.length - i);
          const up: (Text | number)[] = [c.projectId, c.language, now, actor, user];
          const en: (Text | number)[] = [c.projectId, c.language, ...event];
          for (let j = i; j < i + n; j++) {
            const k = indexes[j] as number;
            const w = c.writes[k] as TranslationWrite;
            up.push(
              w.id,
              w.key,
              w.value,
              w.status,
              warningsJson(a?.warnings[k]),
              storedSearchText(w.key, w.value),
              // Its entry's place in the batch: no entry (no audit), no seq.
              a ? j - i : null,
            );
            const old = a?.previous[k];
            if (a) en.push(k, w.key, old?.value ?? null, old?.status ?? null);
          }
          batches.upsert(n).run(...up);
          if (a) batches.entries(n).run(...en);
          i += n;
        }
      };
      for (let i = 0; i < c.writes.length; i = Math.min(i + IMPORT_CHUNK_ROWS, c.writes.length)) {
        const end = Math.min(i + IMPORT_CHUNK_ROWS, c.writes.length);
        // Each chunk's new rows share batches however they alternate with existing ones in the
        // file (one-row batches made a half-new push 2.5–3× slower); entries of different
        // records may land in another order, and history is read per record.
        const fresh: number[] = [];
        const existing: (Text | number)[][] = [];
        for (let k = i; k < end; k++) {
          const old = a?.previous[k];
          if (!old) {
            fresh.push(k);
            continue;
          }
          if (each) {
            const w = c.writes[k] as TranslationWrite;
            const warnings = warningsJson(a?.warnings[k]);
            const search = storedSearchText(w.key, w.value);
            existing.push([w.key, w.value, w.status, warnings, search, old.value, old.status, w.id, k, 0]);
            continue;
          }
          // Rows that existed when the job planned: an UPDATE by key each, cheaper than the
          // upsert's attempted insert, and its RETURNING gives the entry what the join would.
          const w = c.writes[k] as TranslationWrite;
          const row = update.get(
            c.projectId,
            c.language,
            w.key,
            w.value,
            w.status,
            now,
            warningsJson(a?.warnings[k]),
            actor,
            user,
            storedSearchText(w.key, w.value),
          );
          // Deleted since the job planned: written as a new row, as the upsert would.
          if (!row) fresh.push(k);
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
              row.history_prev,
              row.history_seq,
            );
        }
        if (each && existing.length > 0)
          each(UPDATE_EACH, [c.projectId, c.language, now, actor, user, ...event], existing);
        insertNew(fresh);
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

/** Rows of the largest batch statement: 7 parameters a row stay far below SQLite's 32,766. */
const BATCH_ROWS = 128;

/** The batch for the next `n` rows: 128, or the largest power of two below, so few sizes exist. */
const batchSize = (n: number) => (n >= BATCH_ROWS ? BATCH_ROWS : 2 ** Math.floor(Math.log2(n)));

function values(n: number, columns: number): string {
  return Array.from({ length: n }, () => `(${Array(columns).fill("?").join(", ")})`).join(", ");
}

/**
 * The upsert of `n` new rows. `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the
 * INSERT, not to a join. Parameters: project, language, time, actor, user; then id, key, value,
 * status, warnings, search, and the row's entry's place among the batch's (NULL: no entry) a row.
 * The entries (entriesSql, run next) take the seqs numbered here.
 */
function upsertSql(n: number): string {
  return `INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
       updated_by, updated_by_user, search, filled, flagged, history_seq)
     SELECT v.column1, ?1, ?2, v.column2, v.column3, v.column4, ?3, 1, v.column5, ?4, ?5, v.column6,
       v.column3 <> '', v.column5 IS NOT NULL, ${NEXT_SEQ} + v.column7
     FROM (VALUES ${values(n, 7)}) v WHERE true
     ON CONFLICT (project_id, language, key) DO UPDATE SET value = excluded.value, status = excluded.status,
       updated_at = excluded.updated_at, version = version + 1, warnings = excluded.warnings,
       updated_by = excluded.updated_by, updated_by_user = excluded.updated_by_user, search = excluded.search,
       filled = excluded.filled, flagged = excluded.flagged,
       history_prev = iif(excluded.history_seq IS NULL, history_prev, history_seq),
       history_seq = COALESCE(excluded.history_seq, history_seq)`;
}

/**
 * The entries of `n` rows, at the seqs their upsert gave them; a row inserted has no predecessor
 * (`history_prev` NULL). Parameters: project, language, the event (4); then index, key, old value,
 * old status a row.
 */
function entriesSql(n: number): string {
  return `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, job_id, at,
       old_value, old_status, new_value, new_status, version, seq, prev_seq)
     SELECT ?1, t.id, t.key, ?2, ?3, 'import', ?4, ?5, ?6, v.column3, v.column4, t.value, t.status, t.version,
       t.history_seq, t.history_prev
     FROM (VALUES ${values(n, 4)}) v CROSS JOIN translations t
       ON t.project_id = ?1 AND t.language = ?2 AND t.key = v.column2
     ORDER BY v.column1`;
}

/**
 * Upserts of new rows and their history entries, `n` rows a statement in multi-row `VALUES`
 * (prepared once per size). They replaced one JSON array per chunk read with `json_each`, whose
 * every `->>` parsed its row's JSON: a third less CPU for 50,000 new rows with their entries. The
 * entries read each row back by key, so a row that existed after all keeps its id and gains a
 * version; they keep the order of the writes (column1 is the write's index).
 */
function upsertBatches(s: Statements) {
  const upserts = new Map<number, Statement<never, (Text | number)[]>>();
  const entries = new Map<number, Statement<never, (Text | number)[]>>();
  const prepared = (cache: typeof upserts, n: number, sql: (n: number) => string) => {
    let statement = cache.get(n);
    if (!statement) {
      statement = s.prepare<never, (Text | number)[]>(sql(n));
      cache.set(n, statement);
    }
    return statement;
  };
  return {
    upsert: (n: number) => prepared(upserts, n, upsertSql),
    entries: (n: number) => prepared(entries, n, entriesSql),
  };
}

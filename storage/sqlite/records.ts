import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";
import { compareCodePoints } from "../../core/code-point.ts";
import type { RecordStore } from "../../core/ports.ts";
import { storedSearchText } from "../../core/records/fold.ts";
import type { ActivityItem, BrowseQuery, RecordCommit } from "../../core/records/types.ts";
import { browseRows } from "../browse-rows.ts";
import {
  type Dialect,
  hasText,
  keysQuery,
  matchQuery,
  missingQuery,
  type Query,
  statusQuery,
  tallyCounts,
  totalFrom,
  totalQuery,
} from "../browse-sql.ts";
import { tallyCoverage } from "../coverage-tally.ts";
import { paged } from "../paged.ts";
import { type BrowseMemo, createBrowseMemo } from "./browse-memo.ts";
import type { CoverageGroups } from "./coverage.ts";
import { createExportVersions, type ExportBumps } from "./export-versions.ts";
import {
  type ActivityRow,
  HISTORY_COLUMNS,
  type HistoryRow,
  RECORD_COLUMNS,
  type RecordRow,
  toActivity,
  toEntry,
  toRecord,
} from "./record-rows.ts";
import { actorJson, actorUser, createRecordWriter, type NewEntry, warningsJson } from "./record-writes.ts";
import { int, type Statements } from "./statements.ts";

const SQLITE: Dialect = {
  contains: (column) => `instr(${column}, ?) > 0`,
  search: (t) => `COALESCE(${t}.search, lower(${t}.key) || char(1) || lower(${t}.value))`,
  date: "?",
  filled: (t) => `${t}.filled = 1`,
  flagged: (t) => `${t}.flagged = 1`,
  inKeys: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  keys: (keys) => JSON.stringify(keys),
  counted: (t) => `${t}.key`,
};

/** Thrown inside a transaction to roll it back with an answer. */
class Abort<T> {
  constructor(readonly answer: T) {}
}

export function createSqliteRecordStore(
  db: Database,
  s: Statements,
  coverage: CoverageGroups,
  bumps?: ExportBumps,
): RecordStore {
  const writer = createRecordWriter(s);
  const versions = createExportVersions(s, bumps);
  // Browse queries vary with the filters: one prepared statement per distinct SQL text.
  const cache = new Map<string, Statement<Record<string, unknown>, SQLQueryBindings[]>>();
  const prepared = (sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = s.prepare<Record<string, unknown>, SQLQueryBindings[]>(sql);
      cache.set(sql, st);
    }
    return st;
  };
  const all = (q: Query) => prepared(q.sql).all(...(q.params as SQLQueryBindings[]));
  const memo = createBrowseMemo(s);
  const matchedKeys = (q: BrowseQuery, remember: ReturnType<BrowseMemo["of"]>) =>
    hasText(q)
      ? remember(`match\u0001${q.language}\u0001${q.filter.q}`, () =>
          all(matchQuery(q, SQLITE)).map((r) => r.key as string),
        )
      : null;

  const readRecords = s.prepare<RecordRow, [string, string, string | null]>(
    // Both lists are IN lists on the unique index (project_id, language, key): one probe per pair.
    // No languages means the project's own (a project never loses a language).
    `SELECT ${RECORD_COLUMNS} FROM translations
     WHERE project_id = ?1 AND key IN (SELECT value FROM json_each(?2))
       AND language IN (SELECT value FROM json_each(COALESCE(?3, (SELECT languages FROM projects WHERE id = ?1))))`,
  );
  const currentVersion = s.prepare<{ version: number | bigint }, [string, string, string]>(
    "SELECT version FROM translations WHERE project_id = ? AND language = ? AND key = ?",
  );
  // A record's entries form a chain from its last (migration 13): on its row, on its deleted_records
  // row while its key is deleted, or in record_history_gone once an import deleted it.
  const historyHead = s.prepare<{ seq: number | bigint | null }, [string]>(
    `SELECT COALESCE((SELECT history_seq FROM translations WHERE id = ?1),
       (SELECT history_seq FROM deleted_records WHERE id = ?1),
       (SELECT seq FROM record_history_gone WHERE record_id = ?1)) AS seq`,
  );
  const chained = s.prepare<HistoryRow & { prev_seq: number | bigint | null }, [number]>(
    `SELECT ${HISTORY_COLUMNS}, prev_seq FROM record_history WHERE seq = ?`,
  );
  const historyById = s.prepare<HistoryRow, [number, string]>(
    `SELECT ${HISTORY_COLUMNS} FROM record_history WHERE seq = ? AND project_id = ?`,
  );
  const activityPage = s.prepare<ActivityRow, [string, number, number]>(
    `SELECT seq, id, project_id, action, actor, job_id, language, key, detail, at FROM activity
     WHERE project_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  );
  const liveByKey = s.prepare<RecordRow, [string, string]>(
    `SELECT ${RECORD_COLUMNS} FROM translations WHERE project_id = ? AND key = ?`,
  );
  const renameRow = s.prepare<
    { version: number | bigint },
    [string, string, string | null, string | null, string | null, string]
  >(
    `UPDATE translations SET key = ?, version = version + 1, updated_at = ?, updated_by = ?, updated_by_user = ?,
       search = ? WHERE id = ? RETURNING version`,
  );
  const moveToDeleted = s.prepare<never, [string, string, string]>(
    `INSERT INTO deleted_records (id, project_id, language, key, value, status, version, warnings, updated_at,
       updated_by, deleted_at, deleted_by, history_seq)
     SELECT id, project_id, language, key, value, status, version, warnings, updated_at, updated_by, ?, ?,
       history_seq
     FROM translations WHERE id = ?`,
  );
  const deleteRow = s.prepare<never, [string]>("DELETE FROM translations WHERE id = ?");
  const deletedList = s.prepare<
    { key: string; deleted_at: string; deleted_by: string; languages: string },
    [string]
  >(
    `SELECT key, MAX(deleted_at) AS deleted_at, deleted_by, group_concat(DISTINCT language) AS languages
     FROM deleted_records WHERE project_id = ? GROUP BY key ORDER BY deleted_at DESC, key`,
  );
  const deletedOfKey = s.prepare<RecordRow & { deleted_at: string }, [string, string]>(
    `SELECT ${RECORD_COLUMNS}, deleted_at FROM deleted_records WHERE project_id = ? AND key = ?
     ORDER BY deleted_at DESC`,
  );
  const restoreRow = s.prepare<
    never,
    [
      string,
      string,
      string,
      string,
      string,
      string,
      number,
      string | null,
      string,
      string | null,
      string | null,
      string | null,
    ]
  >(
    `INSERT INTO translations (id, project_id, language, key, value, status, version, warnings, updated_at,
       updated_by, updated_by_user, search, filled, flagged)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?5 <> '', ?8 IS NOT NULL)`,
  );
  const forgetDeleted = s.prepare<never, [string, string]>(
    "DELETE FROM deleted_records WHERE project_id = ? AND key = ?",
  );
  const browse = db.transaction((q: BrowseQuery) => {
    const remember = memo.of(q.projectId);
    const matched = matchedKeys(q, remember);
    const keys = all(keysQuery(q, SQLITE, true, matched)).map((r) => r.key as string);
    const more = keys.length > q.limit;
    if (more) keys.pop();
    // Remembered per project until it changes: the missing count per text; the status scan (and
    // with it the total of a filter on the record) and any other total per filter as well.
    const scope = `${q.language}\u0001${q.filter.q ?? ""}`;
    const filters = `${scope}\u0001${JSON.stringify([q.projectLanguages, q.filter])}`;
    const count = (x: Query) => int((all(x)[0]?.n as number) ?? 0);
    const missing = remember(`missing\u0001${scope}`, () => count(missingQuery(q, SQLITE, matched)));
    const statusKey = totalFrom(q) === "statuses" ? filters : scope;
    const statuses = remember(`statuses\u0001${statusKey}`, () => all(statusQuery(q, SQLITE, matched)));
    const own =
      totalFrom(q) === "own"
        ? remember(`total\u0001${filters}`, () => count(totalQuery(q, SQLITE, matched)))
        : null;
    const counts = tallyCounts(statuses, missing, own, q);
    const languages = [...new Set([q.baseLanguage, ...q.languages])];
    const found =
      keys.length === 0 ? [] : readRecords.all(q.projectId, JSON.stringify(keys), JSON.stringify(languages));
    return { keys, more, counts, records: found.map(toRecord), languages };
  });

  const commit = db.transaction((c: RecordCommit) => {
    try {
      for (const w of c.writes) {
        if (w.expectVersion === null) continue;
        const now = currentVersion.get(c.projectId, w.language, w.key);
        const version = now ? int(now.version) : 0;
        if (version !== w.expectVersion)
          throw new Abort({ ok: false as const, key: w.key, language: w.language });
      }
    } catch (e) {
      if (e instanceof Abort) return e.answer;
      throw e;
    }
    const actor = c.activity.actor;
    for (const w of c.writes) {
      const version = writer.upsert(
        { ...w, projectId: c.projectId, warnings: warningsJson(w.warnings), actor },
        c.at,
      );
      writer.history({
        ...entryBase(c.activity, c.projectId, w.id, w.key, w.language, c.at),
        oldValue: w.previous?.value ?? null,
        oldStatus: w.previous?.status ?? null,
        newValue: w.value,
        newStatus: w.status,
        version,
      });
    }
    for (const r of c.rechecks) writer.setWarnings(r.id, r.warnings);
    versions.bump(
      c.projectId,
      c.writes.map((w) => w.language),
    );
    writer.activity(c.activity);
    return { ok: true as const };
  });

  const rename = db.transaction((projectId: string, from: string, to: string, a: ActivityItem) => {
    const rows = liveByKey.all(projectId, from);
    if (rows.length === 0) return "missing" as const;
    if (liveByKey.all(projectId, to).length > 0) return "exists" as const;
    for (const r of rows) {
      const v = renameRow.get(
        to,
        a.at,
        actorJson(a.actor),
        actorUser(a.actor),
        storedSearchText(to, r.value),
        r.id,
      );
      writer.history({
        ...entryBase(a, projectId, r.id, to, r.language, a.at),
        oldValue: r.value,
        oldStatus: r.status,
        newValue: r.value,
        newStatus: r.status,
        version: int(v?.version ?? 0),
      });
    }
    versions.bump(
      projectId,
      rows.map((r) => r.language),
    );
    writer.activity({ ...a, detail: { ...a.detail, records: rows.length } });
    return "renamed" as const;
  });

  const remove = db.transaction((projectId: string, keys: string[], a: ActivityItem) => {
    let n = 0;
    const touched = new Set<string>();
    for (const key of keys) {
      for (const r of liveByKey.all(projectId, key)) {
        touched.add(r.language);
        moveToDeleted.run(a.at, JSON.stringify(a.actor), r.id);
        deleteRow.run(r.id);
        writer.history({
          ...entryBase(a, projectId, r.id, r.key, r.language, a.at),
          oldValue: r.value,
          oldStatus: r.status,
          newValue: null,
          newStatus: null,
          version: null,
        });
        n++;
      }
    }
    versions.bump(projectId, touched);
    if (n > 0) writer.activity({ ...a, detail: { ...a.detail, records: n } });
    return n;
  });

  const restore = db.transaction((projectId: string, key: string, a: ActivityItem) => {
    const rows = deletedOfKey.all(projectId, key);
    if (rows.length === 0) return "missing" as const;
    if (liveByKey.all(projectId, key).length > 0) return "exists" as const;
    const seen = new Set<string>();
    for (const r of rows) {
      if (seen.has(r.language)) continue; // an older deletion of the same record
      seen.add(r.language);
      const version = int(r.version) + 1;
      restoreRow.run(
        r.id,
        projectId,
        r.language,
        key,
        r.value,
        r.status,
        version,
        r.warnings,
        a.at,
        actorJson(a.actor),
        actorUser(a.actor),
        storedSearchText(key, r.value),
      );
      writer.history({
        ...entryBase(a, projectId, r.id, key, r.language, a.at),
        oldValue: null,
        oldStatus: null,
        newValue: r.value,
        newStatus: r.status,
        version,
      });
    }
    forgetDeleted.run(projectId, key);
    versions.bump(projectId, seen);
    writer.activity({ ...a, detail: { ...a.detail, records: seen.size } });
    return "restored" as const;
  });

  return {
    async read(projectId, keys, languages) {
      if (keys.length === 0) return [];
      const rows = readRecords.all(
        projectId,
        JSON.stringify(keys),
        languages === null ? null : JSON.stringify(languages),
      );
      return rows.map(toRecord);
    },
    async browse(q) {
      const r = browse(q);
      const rows = browseRows(r.keys, r.records, q);
      return { rows, more: r.more, counts: r.counts };
    },
    async matchKeys(q) {
      return all(keysQuery(q, SQLITE, false, matchedKeys(q, memo.of(q.projectId))))
        .map((r) => r.key as string)
        .sort(compareCodePoints);
    },
    async commit(c) {
      return commit.immediate(c);
    },
    async history(recordId, cursor, limit) {
      const before = cursor === null ? Number.MAX_SAFE_INTEGER : Number(cursor);
      // A cursor is the seq of an entry of this record (the last of the previous page): the page
      // starts at its predecessor. Any other number walks from the last entry to below it.
      const at = cursor === null ? null : chained.get(before);
      let seq = at && at.record_id === recordId ? at.prev_seq : historyHead.get(recordId)?.seq;
      const rows: HistoryRow[] = [];
      while (seq !== null && seq !== undefined && rows.length <= limit) {
        const row = chained.get(Number(seq));
        // Each link points below itself, to the same record's entry: anything else ends the walk.
        if (!row || row.record_id !== recordId) break;
        if (int(row.seq) < before) rows.push(row);
        seq = row.prev_seq !== null && int(row.prev_seq) < int(row.seq) ? row.prev_seq : null;
      }
      return paged(
        rows.map((r) => ({ seq: int(r.seq), item: toEntry(r) })),
        limit,
      );
    },
    async historyEntry(projectId, entryId) {
      if (!/^[1-9][0-9]{0,14}$/.test(entryId)) return null;
      const r = historyById.get(Number(entryId), projectId);
      return r ? toEntry(r) : null;
    },
    async activity(projectId, cursor, limit) {
      const rows = activityPage.all(
        projectId,
        cursor === null ? Number.MAX_SAFE_INTEGER : Number(cursor),
        limit + 1,
      );
      return paged(
        rows.map((r) => ({ seq: int(r.seq), item: toActivity(r) })),
        limit,
      );
    },
    async renameKey(projectId, from, to, a) {
      return rename.immediate(projectId, from, to, a);
    },
    async deleteKeys(projectId, keys, a) {
      return remove.immediate(projectId, keys, a);
    },
    async listDeleted(projectId) {
      return deletedList.all(projectId).map((r) => ({
        key: r.key,
        deletedAt: r.deleted_at,
        deletedBy: JSON.parse(r.deleted_by),
        languages: r.languages.split(",").sort(compareCodePoints),
      }));
    },
    async restoreKey(projectId, key, a) {
      return restore.immediate(projectId, key, a);
    },
    async coverage(projectId, baseLanguage, languages) {
      return tallyCoverage(coverage(projectId, baseLanguage), baseLanguage, languages);
    },
  };
}

function entryBase(
  a: ActivityItem,
  projectId: string,
  recordId: string,
  key: string,
  language: string,
  at: string,
): Omit<NewEntry, "oldValue" | "oldStatus" | "newValue" | "newStatus" | "version"> {
  return {
    projectId,
    recordId,
    key,
    language,
    eventId: a.id,
    action: a.action,
    actor: a.actor,
    jobId: a.jobId,
    at,
  };
}

import type { Sql, TransactionSql } from "postgres";
import type { Warning } from "../../core/checks/index.ts";
import { compareCodePoints } from "../../core/code-point.ts";
import type { RecordStore } from "../../core/ports.ts";
import type { Actor } from "../../core/principal.ts";
import type { ActivityItem, HistoryEntry, RecordState } from "../../core/records/types.ts";
import type { TranslationStatus } from "../../core/types.ts";
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
  toNumbered,
  totalFrom,
  totalQuery,
} from "../browse-sql.ts";
import { tallyCoverage } from "../coverage-tally.ts";
import { paged } from "../paged.ts";
import { createProjectMemo } from "../project-memo.ts";
import { type DbRow, iso, num, numOrNull, str, strOrNull } from "./convert.ts";
import type { CoverageGroups } from "./coverage.ts";
import { bumpExportVersions } from "./export-versions.ts";
import { keyDigests } from "./key-digest.ts";
import {
  deletionEntries,
  type EntryContext,
  insertActivity,
  setWarnings,
  upsertWrites,
  warningsJson,
} from "./record-writes.ts";

const POSTGRES: Dialect = {
  contains: (column) => `strpos(${column}, ?) > 0`,
  search: (t) => `COALESCE(${t}.search, lower(${t}.key) || chr(1) || lower(${t}.value))`,
  date: "?::timestamptz",
  filled: (t) => `${t}.filled`,
  flagged: (t) => `${t}.flagged`,
  // By digest, a constant list (key-digest.ts): probes of translations_key (project, language,
  // digest) or a hashed filter, where `key = ANY (…)` compared every record of the language with
  // every listed key.
  inKeys: (column) => `parlance_key_digest(${column}) = ANY (?::text[]::bytea[])`,
  keys: keyDigests,
  counted: (t) => `${t}.key_digest`,
};

const toRecord = (r: DbRow): RecordState => ({
  id: str(r.id),
  projectId: str(r.project_id),
  key: str(r.key),
  language: str(r.language),
  value: str(r.value),
  status: str(r.status) as TranslationStatus,
  version: num(r.version),
  warnings: r.warnings === null ? [] : (JSON.parse(str(r.warnings)) as Warning[]),
  updatedAt: iso(r.updated_at),
  updatedBy: r.updated_by === null ? null : (JSON.parse(str(r.updated_by)) as Actor),
});

const toEntry = (r: DbRow): HistoryEntry => ({
  id: String(num(r.seq)),
  recordId: str(r.record_id),
  projectId: str(r.project_id),
  key: str(r.key),
  language: str(r.language),
  eventId: str(r.event_id),
  action: str(r.action) as HistoryEntry["action"],
  actor: JSON.parse(str(r.actor)) as Actor,
  jobId: strOrNull(r.job_id),
  at: iso(r.at),
  oldValue: strOrNull(r.old_value),
  oldStatus: strOrNull(r.old_status) as TranslationStatus | null,
  newValue: strOrNull(r.new_value),
  newStatus: strOrNull(r.new_status) as TranslationStatus | null,
  version: numOrNull(r.version),
});

const toActivity = (r: DbRow): ActivityItem => ({
  id: str(r.id),
  projectId: str(r.project_id),
  action: str(r.action) as ActivityItem["action"],
  actor: JSON.parse(str(r.actor)) as Actor,
  jobId: strOrNull(r.job_id),
  language: strOrNull(r.language),
  key: strOrNull(r.key),
  detail: JSON.parse(str(r.detail)) as ActivityItem["detail"],
  at: iso(r.at),
});

const COLUMNS = "id, project_id, language, key, value, status, version, warnings, updated_at, updated_by";

/** Ends a transaction with an answer after rolling it back. */
class Abort<T> {
  constructor(readonly answer: T) {}
}

/**
 * Records of project `$1` whose key is listed (`$2`, `$3`: the keys and their digests), in the
 * languages listed (`$4`) or all: through translations_key (project, language, digest), where
 * `key = ANY (…)` alone compared every record of the project with every listed key. Not prepared,
 * so the digests are always a constant the planner can hash (key-digest.ts).
 */
const readByKeys = (
  sql: Sql | TransactionSql,
  projectId: string,
  keys: readonly string[],
  languages: readonly string[] | null,
) =>
  sql.unsafe(
    `SELECT ${COLUMNS} FROM translations
     WHERE project_id = $1 AND parlance_key_digest(key) = ANY ($3::text[]::bytea[]) AND key = ANY ($2::text[])
       ${languages === null ? "" : "AND language = ANY ($4::text[])"}`,
    (languages === null
      ? [projectId, [...keys], keyDigests(keys)]
      : [projectId, [...keys], keyDigests(keys), [...languages]]) as never[],
  );

/** Who and what the history entries of one action share, from the action's activity item. */
const entryContext = (projectId: string, a: ActivityItem): EntryContext => ({
  projectId,
  actor: a.actor,
  eventId: a.id,
  action: a.action,
  jobId: a.jobId,
  at: a.at,
  history: true,
});

/**
 * What every key change (rename, delete, restore) ends with: its activity item, counting the
 * records it touched, and the export versions of their languages moved, so pulls see a new tag.
 */
async function endKeyChange(
  tx: TransactionSql,
  projectId: string,
  a: ActivityItem,
  records: readonly RecordState[],
): Promise<void> {
  await insertActivity(tx, { ...a, detail: { ...a.detail, records: records.length } });
  await bumpExportVersions(
    tx,
    projectId,
    records.map((r) => r.language),
  );
}

/** A page of an append-only log (history, activity), newest first; the cursor is the last seq seen. */
async function newestFirst<T>(
  sql: Sql,
  table: "record_history" | "activity",
  column: "record_id" | "project_id",
  id: string,
  cursor: string | null,
  limit: number,
  map: (r: DbRow) => T,
) {
  const rows = await sql`
    SELECT * FROM ${sql(table)} WHERE ${sql(column)} = ${id}
      ${cursor === null ? sql`` : sql`AND seq < ${Number(cursor)}`}
    ORDER BY seq DESC LIMIT ${limit + 1}`;
  return paged(
    rows.map((r) => ({ seq: num(r.seq), item: map(r) })),
    limit,
  );
}

export function createRecordStore(sql: Sql, coverage: CoverageGroups): RecordStore {
  // Browse counts kept per project while its export versions hold: valid across instances, since
  // every instance's writes replace the versions in their own transaction.
  const memo = createProjectMemo();
  const run = (q: Query) => sql.unsafe(toNumbered(q.sql), q.params as never[]);

  return {
    async read(projectId, keys, languages) {
      if (keys.length === 0) return [];
      return (await readByKeys(sql, projectId, keys, languages)).map(toRecord);
    },
    async browse(q) {
      // One snapshot for the page, its counts and the project's export versions they are kept at.
      return sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
        const go = (x: Query) => tx.unsafe(toNumbered(x.sql), x.params as never[]);
        const [versions] = await tx`
          SELECT string_agg(language || '=' || tag, ',' ORDER BY language) AS v
          FROM export_versions WHERE project_id = ${q.projectId}`;
        const remember = memo.of(q.projectId, strOrNull(versions?.v) ?? "").async;
        const matched = hasText(q)
          ? await remember(`match\u0001${q.language}\u0001${q.filter.q}`, async () =>
              (await go(matchQuery(q, POSTGRES))).map((r) => str(r.key)),
            )
          : null;
        const scope = `${q.language}\u0001${q.filter.q ?? ""}`;
        const filters = `${scope}\u0001${JSON.stringify([q.projectLanguages, q.filter])}`;
        const count = async (x: Query) => num((await go(x))[0]?.n ?? 0);
        // The status scan gives the total of a filter on the record; others need their own count.
        const [keys, statuses, missing, own] = await Promise.all([
          go(keysQuery(q, POSTGRES, true, matched)).then((rows) => rows.map((r) => str(r.key))),
          remember(`statuses\u0001${totalFrom(q) === "statuses" ? filters : scope}`, async () => [
            ...(await go(statusQuery(q, POSTGRES, matched))),
          ]),
          remember(`missing\u0001${scope}`, () => count(missingQuery(q, POSTGRES, matched))),
          totalFrom(q) === "own"
            ? remember(`total\u0001${filters}`, () => count(totalQuery(q, POSTGRES, matched)))
            : null,
        ]);
        const more = keys.length > q.limit;
        if (more) keys.pop();
        const counts = tallyCounts(statuses, missing, own, q);
        const languages = [...new Set([q.baseLanguage, ...q.languages])];
        const found = keys.length === 0 ? [] : await readByKeys(tx, q.projectId, keys, languages);
        const rows = browseRows(keys, found.map(toRecord), q);
        return { rows, more, counts };
      });
    },
    async matchKeys(q) {
      const matched = hasText(q) ? (await run(matchQuery(q, POSTGRES))).map((r) => str(r.key)) : null;
      return (await run(keysQuery(q, POSTGRES, false, matched)))
        .map((r) => str(r.key))
        .sort(compareCodePoints);
    },
    async commit(c) {
      try {
        return await sql.begin(async (tx) => {
          // Locks the guarded rows first, so two racing edits of one record serialize here.
          for (const w of c.writes) {
            if (w.expectVersion === null) continue;
            const [row] = await tx`
              SELECT version FROM translations
              WHERE project_id = ${c.projectId} AND language = ${w.language} AND parlance_key_digest(key) = parlance_key_digest(${w.key}) AND key = ${w.key}
              FOR UPDATE`;
            const version = row ? num(row.version) : 0;
            if (version !== w.expectVersion)
              throw new Abort({ ok: false as const, key: w.key, language: w.language });
          }
          const ctx = { ...entryContext(c.projectId, c.activity), at: c.at };
          await upsertWrites(
            tx,
            ctx,
            c.writes.map((w) => ({ ...w, warnings: warningsJson(w.warnings), old: w.previous })),
          );
          await setWarnings(tx, c.rechecks);
          await insertActivity(tx, c.activity);
          await bumpExportVersions(
            tx,
            c.projectId,
            c.writes.map((w) => w.language),
          );
          return { ok: true as const };
        });
      } catch (e) {
        if (e instanceof Abort) return e.answer as { ok: false; key: string; language: string };
        // A racing creation of the same record (version 0 on both sides) loses on the unique index.
        if ((e as { code?: string }).code === "23505") {
          const w = c.writes[0];
          return { ok: false, key: w?.key ?? "", language: w?.language ?? "" };
        }
        throw e;
      }
    },
    async history(recordId, cursor, limit) {
      return newestFirst(sql, "record_history", "record_id", recordId, cursor, limit, toEntry);
    },
    async historyEntry(projectId, entryId) {
      if (!/^[1-9][0-9]{0,14}$/.test(entryId)) return null;
      const [r] =
        await sql`SELECT * FROM record_history WHERE seq = ${Number(entryId)} AND project_id = ${projectId}`;
      return r ? toEntry(r) : null;
    },
    async activity(projectId, cursor, limit) {
      return newestFirst(sql, "activity", "project_id", projectId, cursor, limit, toActivity);
    },
    async renameKey(projectId, from, to, a) {
      return sql.begin(async (tx) => {
        const rows = await tx`SELECT ${tx.unsafe(COLUMNS)} FROM translations
          WHERE project_id = ${projectId} AND key = ${from} FOR UPDATE`;
        if (rows.length === 0) return "missing" as const;
        const [taken] =
          await tx`SELECT 1 FROM translations WHERE project_id = ${projectId} AND key = ${to} LIMIT 1`;
        if (taken) return "exists" as const;
        const records = rows.map(toRecord);
        await tx`DELETE FROM translations WHERE id = ANY (${tx.array(records.map((r) => r.id))}::text[])`;
        // Re-inserted under the new key with their ids: version 1 then + 1 below keeps the count right.
        const ctx = entryContext(projectId, a);
        for (const r of records) {
          await tx`INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings,
                                             updated_by, updated_by_user, search)
                   VALUES (${r.id}, ${projectId}, ${r.language}, ${to}, ${r.value}, ${r.status}, ${a.at}::timestamptz,
                           ${r.version}, ${warningsJson(r.warnings)}, NULL, NULL, NULL)`;
        }
        await upsertWrites(
          tx,
          ctx,
          records.map((r) => ({
            id: r.id,
            key: to,
            language: r.language,
            value: r.value,
            status: r.status,
            warnings: warningsJson(r.warnings),
            old: { value: r.value, status: r.status },
          })),
        );
        await endKeyChange(tx, projectId, a, records);
        return "renamed" as const;
      });
    },
    async deleteKeys(projectId, keys, a) {
      return sql.begin(async (tx) => {
        const rows = await tx`
          DELETE FROM translations WHERE project_id = ${projectId} AND key = ANY (${tx.array(keys)}::text[])
          RETURNING ${tx.unsafe(COLUMNS)}`;
        if (rows.length === 0) return 0;
        const records = rows.map(toRecord);
        for (const r of records) {
          await tx`INSERT INTO deleted_records (id, project_id, language, key, value, status, version, warnings,
                                                updated_at, updated_by, deleted_at, deleted_by)
                   VALUES (${r.id}, ${projectId}, ${r.language}, ${r.key}, ${r.value}, ${r.status}, ${r.version},
                           ${warningsJson(r.warnings)}, ${r.updatedAt}::timestamptz,
                           ${r.updatedBy === null ? null : JSON.stringify(r.updatedBy)}, ${a.at}::timestamptz,
                           ${JSON.stringify(a.actor)})
                   ON CONFLICT (id) DO NOTHING`;
        }
        const ctx = entryContext(projectId, a);
        await deletionEntries(tx, ctx, records);
        await endKeyChange(tx, projectId, a, records);
        return records.length;
      });
    },
    async listDeleted(projectId) {
      const rows = await sql`
        SELECT key, max(deleted_at) AS deleted_at, (array_agg(deleted_by ORDER BY deleted_at DESC))[1] AS deleted_by,
               array_agg(DISTINCT language) AS languages
        FROM deleted_records WHERE project_id = ${projectId} GROUP BY key`;
      return rows
        .map((r) => ({
          key: str(r.key),
          deletedAt: iso(r.deleted_at),
          deletedBy: JSON.parse(str(r.deleted_by)) as Actor,
          languages: (r.languages as string[]).map(String).sort(compareCodePoints),
        }))
        .sort((x, y) =>
          x.deletedAt === y.deletedAt ? compareCodePoints(x.key, y.key) : x.deletedAt < y.deletedAt ? 1 : -1,
        );
    },
    async restoreKey(projectId, key, a) {
      return sql.begin(async (tx) => {
        const [taken] =
          await tx`SELECT 1 FROM translations WHERE project_id = ${projectId} AND key = ${key} LIMIT 1`;
        const [deleted] =
          await tx`SELECT 1 FROM deleted_records WHERE project_id = ${projectId} AND key = ${key} LIMIT 1`;
        if (!deleted) return "missing" as const;
        if (taken) return "exists" as const;
        // Taken out of the bin whole; an older deletion of the same record is dropped with it.
        const all = await tx`
          DELETE FROM deleted_records WHERE project_id = ${projectId} AND key = ${key}
          RETURNING ${tx.unsafe(COLUMNS)}, deleted_at`;
        const newest = new Map<string, DbRow>();
        for (const r of all) {
          const seen = newest.get(str(r.language));
          if (!seen || iso(seen.deleted_at) < iso(r.deleted_at)) newest.set(str(r.language), r);
        }
        const rows = [...newest.values()];
        const records = rows.map(toRecord);
        for (const r of records) {
          await tx`INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version, warnings, search)
                   VALUES (${r.id}, ${projectId}, ${r.language}, ${key}, ${r.value}, ${r.status}, ${a.at}::timestamptz,
                           ${r.version}, ${warningsJson(r.warnings)}, NULL)`;
        }
        const ctx = entryContext(projectId, a);
        await upsertWrites(
          tx,
          ctx,
          records.map((r) => ({
            id: r.id,
            key,
            language: r.language,
            value: r.value,
            status: r.status,
            warnings: warningsJson(r.warnings),
            old: null,
          })),
        );
        await endKeyChange(tx, projectId, a, records);
        return "restored" as const;
      });
    },
    async coverage(projectId, baseLanguage, languages) {
      return tallyCoverage(await coverage(projectId, baseLanguage), baseLanguage, languages);
    },
  };
}

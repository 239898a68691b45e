/**
 * The SQL of browsing, shared by the SQLite and Postgres adapters: keys as rows, in code-point
 * order of key (both stores sort keys by UTF-8 bytes), filtered on the record of one language.
 * Every query walks one language's records in key order (on SQLite through one covering index,
 * translations_browse) and never probes record by record:
 * - no filter: the keys of every language, merged (UNION … ORDER BY key);
 * - `missing`: the base's filled keys EXCEPT the language's filled ones (or, with a filter on the
 *   record, INTERSECT the language's empty records that pass it), merged in key order;
 * - other filters: the language's records.
 * A text search first lists the keys whose base or language record holds the text (`matchQuery`,
 * run once per browse); the other queries then take that list as a parameter.
 * Placeholders are `?`; Postgres numbers them (`toNumbered`).
 */
import type { BrowseCounts, BrowseQuery } from "../core/records/types.ts";
import type { TranslationStatus } from "../core/types.ts";

export interface Dialect {
  /** A boolean SQL expression: the text column holds the parameter as a substring. */
  contains(column: string): string;
  /**
   * A record alias's folded search text: the stored one, or, where none is stored (key and value
   * plain ASCII, `storedSearchText`), the lower-cased key and value computed as the store reads.
   */
  search(t: string): string;
  /** The placeholder of a date-time parameter. */
  date: string;
  /** Boolean expressions on a record alias: its value is not empty; it has warnings. */
  filled(t: string): string;
  flagged(t: string): string;
  /** A boolean expression: the column is one of the keys of the list parameter. */
  inKeys(column: string): string;
  /** The list parameter as the store takes it. */
  keys(keys: readonly string[]): Param;
  /**
   * What stands for a record's key where keys are only counted: the key itself, or a stored
   * digest of it that an index can carry when keys are too long for one (Postgres).
   */
  counted(t: string): string;
}

export type Param = string | number | readonly string[];

export interface Query {
  sql: string;
  params: Param[];
}

export const hasText = (q: BrowseQuery) => q.filter.q !== undefined && q.filter.q !== "";

const hasRecordFilter = (q: BrowseQuery) => {
  const f = q.filter;
  return (
    (f.statuses?.length ?? 0) > 0 ||
    f.warnings === true ||
    f.changedSince !== undefined ||
    f.changedBy !== undefined
  );
};

function recordConditions(q: BrowseQuery, d: Dialect, params: Query["params"]): string[] {
  const f = q.filter;
  const out: string[] = [];
  if (f.statuses && f.statuses.length > 0) {
    out.push(`t.status IN (${f.statuses.map(() => "?").join(", ")})`);
    params.push(...f.statuses);
  }
  if (f.warnings) out.push(d.flagged("t"));
  if (f.changedSince !== undefined) {
    out.push(`t.updated_at >= ${d.date}`);
    params.push(f.changedSince);
  }
  if (f.changedBy !== undefined) {
    out.push("t.updated_by_user = ?");
    params.push(f.changedBy);
  }
  return out;
}

/** Keys whose base or language record holds the (folded) text, in key order. */
export function matchQuery(q: BrowseQuery, d: Dialect): Query {
  const languages = [...new Set([q.baseLanguage, q.language])];
  const params: Query["params"] = [];
  const parts = languages.map((language) => {
    params.push(q.projectId, language, q.filter.q ?? "");
    return `SELECT t.key AS key FROM translations t WHERE t.project_id = ? AND t.language = ? AND ${d.contains(d.search("t"))}`;
  });
  return { sql: `${parts.join(" UNION ")} ORDER BY key`, params };
}

/**
 * The keys matching every filter but the text, in order; `matched` (the text's keys) narrows
 * them; `paged` adds the cursor and the limit (plus one, to tell whether more follow).
 */
export function keysQuery(
  q: BrowseQuery,
  d: Dialect,
  paged: boolean,
  matched: readonly string[] | null,
  counting = false,
): Query {
  const params: Query["params"] = [];
  const key = (t: string) => (counting ? d.counted(t) : `${t}.key`);
  const select = (where: string[], language: string, t = "t") => {
    params.push(q.projectId, language);
    const all = [`${t}.project_id = ?`, `${t}.language = ?`, ...where];
    if (matched !== null) {
      all.push(d.inKeys(`${t}.key`));
      params.push(d.keys(matched));
    }
    if (paged && q.after !== null) {
      all.push(`${t}.key > ?`);
      params.push(q.after);
    }
    return `SELECT ${key(t)} AS key FROM translations ${t} WHERE ${all.join(" AND ")}`;
  };
  let sql: string;
  if (q.filter.missing) {
    const base = select([d.filled("t")], q.baseLanguage);
    if (hasRecordFilter(q)) {
      const conditions = [`NOT ${d.filled("t")}`];
      const language = `SELECT ${key("t")} AS key FROM translations t WHERE t.project_id = ? AND t.language = ?`;
      params.push(q.projectId, q.language);
      conditions.push(...recordConditions(q, d, params));
      sql = `${base} INTERSECT ${language} AND ${conditions.join(" AND ")}`;
    } else {
      sql = `${base} EXCEPT ${select([d.filled("t")], q.language)}`;
    }
  } else if (hasRecordFilter(q)) {
    const conditions: string[] = [];
    const p: Query["params"] = [];
    conditions.push(...recordConditions(q, d, p));
    params.push(q.projectId, q.language, ...p);
    sql = `SELECT ${key("t")} AS key FROM translations t WHERE t.project_id = ? AND t.language = ? AND ${conditions.join(" AND ")}`;
    if (matched !== null) {
      sql += ` AND ${d.inKeys("t.key")}`;
      params.push(d.keys(matched));
    }
    if (paged && q.after !== null) {
      sql += " AND t.key > ?";
      params.push(q.after);
    }
  } else {
    sql = q.projectLanguages.map((l) => select([], l)).join(" UNION ");
  }
  // ORDER BY lets SQLite merge the parts of a compound in key order instead of sorting them.
  sql += " ORDER BY key";
  if (paged) {
    sql += " LIMIT ?";
    params.push(q.limit + 1);
  }
  return { sql, params };
}

/** How many keys match every filter. */
export function totalQuery(q: BrowseQuery, d: Dialect, matched: readonly string[] | null): Query {
  const keys = keysQuery(q, d, false, matched, true);
  return { sql: `SELECT COUNT(*) AS n FROM (${keys.sql}) k`, params: keys.params };
}

/**
 * Per status of the language's records among the matched keys: how many (`n`), how many with
 * warnings (`w`), and how many pass the filter on the record (`f`, when the total comes from this
 * scan: see `totalFrom`). One walk of the language's records gives the counts and the total.
 */
export function statusQuery(q: BrowseQuery, d: Dialect, matched: readonly string[] | null): Query {
  const params: Query["params"] = [];
  let passing = "0";
  if (totalFrom(q) === "statuses") {
    passing = `SUM(CASE WHEN ${recordConditions(q, d, params).join(" AND ")} THEN 1 ELSE 0 END)`;
  }
  params.push(q.projectId, q.language);
  let sql = `SELECT t.status AS status, COUNT(*) AS n, SUM(CASE WHEN ${d.flagged("t")} THEN 1 ELSE 0 END) AS w,
    ${passing} AS f FROM translations t WHERE t.project_id = ? AND t.language = ?`;
  if (matched !== null) {
    sql += ` AND ${d.inKeys("t.key")}`;
    params.push(d.keys(matched));
  }
  return { sql: `${sql} GROUP BY t.status`, params };
}

/** How many matched keys have a non-empty base value and none in the language. */
export const missingQuery = (q: BrowseQuery, d: Dialect, matched: readonly string[] | null): Query =>
  totalQuery({ ...q, filter: { missing: true } }, d, matched);

/**
 * Where a browse's total comes from: a filter on the record alone is the status scan's `f`,
 * `missing` alone is the missing count; no filter (the keys of every language) and `missing` with
 * a filter on the record need their own count (`totalQuery`).
 */
export function totalFrom(q: BrowseQuery): "statuses" | "missing" | "own" {
  const onRecord = hasRecordFilter(q);
  if (q.filter.missing) return onRecord ? "own" : "missing";
  return onRecord ? "statuses" : "own";
}

/** The counts of a browse from the status scan's rows, the missing count and the total. */
export function tallyCounts(
  statusRows: readonly Record<string, unknown>[],
  missing: number,
  own: number | null,
  q: BrowseQuery,
): BrowseCounts {
  const counts: BrowseCounts = {
    total: 0,
    missing,
    draft: 0,
    pending: 0,
    needs_review: 0,
    approved: 0,
    warnings: 0,
  };
  let passing = 0;
  for (const r of statusRows) {
    counts[r.status as TranslationStatus] = Number(r.n);
    counts.warnings += Number(r.w ?? 0);
    passing += Number(r.f ?? 0);
  }
  const from = totalFrom(q);
  counts.total = from === "statuses" ? passing : from === "missing" ? missing : (own ?? 0);
  return counts;
}

/** `?` placeholders as Postgres' `$1`, `$2`…; the SQL here holds no other question mark. */
export function toNumbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

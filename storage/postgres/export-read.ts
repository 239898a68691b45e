import type { Sql, TransactionSql } from "postgres";

/**
 * A whole-language export read (50,000 rows for the bench's languages), run with settings for its
 * own transaction only (docs/decisions.md, "Export reads on Postgres"):
 *
 * - `work_mem`: the rows are sorted by key (no index orders keys: they may pass a btree entry's
 *   limit). With the default 4 MB the planner spread the scan and the sort over parallel workers
 *   whose sorts spilled to temporary files; with room for the sort in memory (about 11 MB for
 *   50,000 short values) it plans one process and a quicksort, a third of the database's CPU.
 * - `jit`: in a large table the language's rows are costed as heap pages read at random, which
 *   passes `jit_above_cost` (100,000): the plan was compiled by LLVM on every execution, in each
 *   worker, for a scan and a sort that gain nothing from it (tens of milliseconds a pull).
 */
export async function exportRead<T>(
  sql: Sql,
  read: (tx: TransactionSql) => Promise<T>,
  options: { mergeJoin?: boolean } = {},
): Promise<T> {
  return sql.begin("READ ONLY", async (tx) => {
    // All for this transaction only (is_local), in one round trip. `mergeJoin`: a join of two
    // languages by key merges them each sorted (the order the export wants) instead of hashing one
    // side and sorting the joined rows after (docs/decisions.md, "The Postgres XLIFF pull,
    // eleventh pass"), and never loops over one side for each row of the other: on a table not
    // yet analyzed (a new instance's first import) the planner counts one row a side and chose
    // that loop, which compares every pair of rows (15 s for 5,000 keys; docs/decisions.md, "Joins
    // by key before the first ANALYZE").
    await tx`SELECT set_config('work_mem', ${EXPORT_SORT_MEMORY}, true), set_config('jit', 'off', true)
      ${options.mergeJoin ? tx`, set_config('enable_hashjoin', 'off', true), set_config('enable_nestloop', 'off', true)` : tx``}`;
    return read(tx);
  }) as Promise<T>;
}

/** Memory each sort of an export read may use before it spills to disk. */
export const EXPORT_SORT_MEMORY = "64MB";

/**
 * A whole language's rows (`$2` of project `$1`) with their source, the base's value (`$3`), in
 * code-point order of key: the XLIFF read, run by `exportRead` with `mergeJoin`. Text, so that a
 * test can ask for its plan.
 */
export const SOURCED_ROWS_SQL = `SELECT t.key, t.value, t.status, b.value AS source
  FROM translations t LEFT JOIN translations b
    ON b.project_id = t.project_id AND b.language = $3 AND b.key = t.key
  WHERE t.project_id = $1 AND t.language = $2
  ORDER BY t.key COLLATE "C"`;

/**
 * The rows of `SOURCED_ROWS_SQL` whose id is listed (`$4`, a text array): each row's source is one
 * probe of translations_key, so no plan reads the base once per row.
 */
export const SELECTED_SOURCED_ROWS_SQL = `SELECT t.key, t.value, t.status,
    (SELECT b.value FROM translations b
     WHERE b.project_id = t.project_id AND b.language = $3
       AND parlance_key_digest(b.key) = parlance_key_digest(t.key) AND b.key = t.key) AS source
  FROM translations t
  WHERE t.project_id = $1 AND t.language = $2 AND t.id = ANY ($4::text[])
  ORDER BY t.key COLLATE "C"`;

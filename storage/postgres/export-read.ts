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
    // eleventh pass").
    await tx`SELECT set_config('work_mem', ${EXPORT_SORT_MEMORY}, true), set_config('jit', 'off', true)
      ${options.mergeJoin ? tx`, set_config('enable_hashjoin', 'off', true)` : tx``}`;
    return read(tx);
  }) as Promise<T>;
}

/** Memory each sort of an export read may use before it spills to disk. */
export const EXPORT_SORT_MEMORY = "64MB";

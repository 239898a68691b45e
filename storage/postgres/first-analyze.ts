import type { TransactionSql } from "postgres";

/** Rows an import writes before its commit analyzes a never-analyzed translations table. */
export const FIRST_ANALYZE_ROWS = 1000;

/**
 * Gives `translations` its first statistics in the transaction of the first import that writes
 * FIRST_ANALYZE_ROWS or more, so no request ever sees those rows without them. Until a table is
 * first analyzed the planner counts about one row per condition: reads that pair two languages by
 * key or look up listed keys then compare every pair (seconds for a few thousand keys, minutes for
 * 50,000). Autovacuum analyzes a new table within a minute or so, and never where an operator
 * turned it off. Once the table has statistics, the planner scales them with its size, and
 * autovacuum keeps them (docs/decisions.md, "Joins by key before the first ANALYZE").
 */
export async function analyzeFirstImport(tx: TransactionSql, rowsWritten: number): Promise<void> {
  if (rowsWritten < FIRST_ANALYZE_ROWS) return;
  const [row] = await tx`
    SELECT NOT EXISTS (
      SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'translations'
    ) AS never`;
  // ANALYZE runs inside a transaction and counts the rows this one wrote.
  if (row?.never) await tx`ANALYZE translations`;
}

/**
 * The part of `node:sqlite`'s DatabaseSync that storage/sqlite uses, declared here (no runtime
 * import, no Bun types) so the published node:sqlite entry's declarations need neither.
 */
interface NodeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}

export interface NodeSqliteDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}

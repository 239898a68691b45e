import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";

/**
 * Prepares each statement once per storage and remembers it, so `close()` can finalize them all
 * while the caller keeps the connection. Parameters are positional (`?`) so the statements work
 * whether or not the caller opened the database with `strict`.
 */
export interface Statements {
  prepare<Row = unknown, Params extends SQLQueryBindings[] = SQLQueryBindings[]>(
    sql: string,
  ): Statement<Row, Params>;
  finalizeAll(): void;
}

export function createStatements(db: Database): Statements {
  const prepared: Statement<unknown, SQLQueryBindings[]>[] = [];
  return {
    prepare<Row, Params extends SQLQueryBindings[]>(sql: string): Statement<Row, Params> {
      const statement = db.prepare<Row, Params>(sql) as Statement<Row, Params>;
      prepared.push(statement as unknown as Statement<unknown, SQLQueryBindings[]>);
      return statement;
    },
    finalizeAll() {
      for (const s of prepared.splice(0)) s.finalize();
    },
  };
}

/** INTEGER columns come back as bigint when the caller opened the database with `safeIntegers`. */
export const int = (value: number | bigint): number => Number(value);

/** SQLite has no boolean type; 0 and 1 (or 0n and 1n) stand in. */
export const bool = (value: number | bigint): boolean => Number(value) !== 0;

/**
 * SQLite reports a violated UNIQUE or PRIMARY KEY constraint with these extended codes: bun:sqlite
 * names them in `code`, node:sqlite gives their numbers in `errcode` (2067 and 1555).
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown } | null;
  return (
    e?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    e?.errcode === 2067 ||
    e?.errcode === 1555
  );
}

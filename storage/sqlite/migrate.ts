import type { Database } from "bun:sqlite";
import { type Migration, pendingMigrations } from "../migrations.ts";
import { SQLITE_MIGRATIONS } from "./schema.ts";

/**
 * The settings of a connection, beside the file's journal mode (which the storage's own connection
 * sets, and the file keeps): a connection that only joins, such as the import thread's, needs these.
 */
export const CONNECTION_PRAGMAS = [
  "PRAGMA busy_timeout = 5000",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
] as const;

/** Connection settings every Parlance connection needs; none of them can change inside a transaction. */
export function configureSqlite(db: Database): void {
  // busy_timeout first: another connection to the file (the import thread's) may be opening it.
  for (const pragma of CONNECTION_PRAGMAS) db.run(pragma);
  db.run("PRAGMA journal_mode = WAL");
}

/**
 * Brings the schema up to date; a no-op when it already is. Synchronous because bun:sqlite is, so
 * the storage factory can stay synchronous. The whole pass holds the write lock (BEGIN IMMEDIATE),
 * so a server and an operator command starting together never apply a migration twice.
 */
export function migrateSqlite(db: Database, list: readonly Migration[] = SQLITE_MIGRATIONS): number[] {
  const run = db.transaction(() => {
    db.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    )`);
    const select = db.prepare<{ version: number | bigint }, []>("SELECT version FROM schema_migrations");
    const applied = select.all().map((r) => Number(r.version));
    select.finalize();
    const pending = pendingMigrations(list, applied);
    for (const m of pending) {
      db.run(m.sql);
      db.run("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", [m.version, m.name]);
    }
    return pending.map((m) => m.version);
  });
  return run.immediate();
}

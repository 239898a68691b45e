/**
 * Applies the schema at start-up. Everything runs in one transaction that first takes an advisory
 * lock, so two instances starting at once apply each migration exactly once (the second waits,
 * then finds nothing left to do), and a failed migration leaves no half-built schema behind.
 */
import type { Sql, TransactionSql } from "postgres";
import { type MigrationDriver, runMigrations } from "../migrations.ts";
import { num } from "./convert.ts";
import { postgresMigrations } from "./schema.ts";

function driver(tx: TransactionSql): MigrationDriver {
  return {
    async applied() {
      // Checked rather than CREATE … IF NOT EXISTS, which prints a NOTICE on every start.
      const [present] = await tx`
        SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'parlance_migrations'`;
      if (!present) {
        await tx`CREATE TABLE parlance_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`;
      }
      const rows = await tx`SELECT version FROM parlance_migrations ORDER BY version`;
      return rows.map((r) => num(r.version));
    },
    async apply(m) {
      // Simple protocol: a migration holds several statements and no parameters.
      await tx.unsafe(m.sql).simple();
      await tx`INSERT INTO parlance_migrations (version, name) VALUES (${m.version}, ${m.name})`;
    },
  };
}

/** Brings the schema of the client's search_path up to date; the versions it applied. */
export async function migratePostgres(sql: Sql): Promise<number[]> {
  return sql.begin(async (tx) => {
    // Advisory locks are database-wide; keying on the schema lets stores in separate schemas of
    // one database migrate side by side, while two starts against the same schema serialize.
    await tx`SELECT pg_advisory_xact_lock(hashtextextended('parlance:migrate:' || coalesce(current_schema(), ''), 0))`;
    return runMigrations(driver(tx), postgresMigrations);
  });
}

/** Whether the schema of the client's search_path holds Parlance's tables (a migration ran there). */
export async function isMigrated(sql: Sql): Promise<boolean> {
  const [present] = await sql`
    SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'parlance_migrations'`;
  return present !== undefined;
}

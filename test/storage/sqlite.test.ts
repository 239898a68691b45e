import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createSqliteStorage, migrateSqlite, SQLITE_MIGRATIONS } from "../../storage/sqlite/index.ts";
import { fromNodeSqlite } from "../../storage/sqlite/node-sqlite.ts";
import { runStorageContracts } from "../contract/index.ts";

/** A fresh in-memory database per test, opened the way the caller chooses. */
const onMemoryDatabase =
  (open: () => Database = () => new Database(":memory:")) =>
  async () => {
    const db = open();
    const storage = createSqliteStorage(db);
    return {
      storage,
      async teardown() {
        await storage.close();
        db.close();
      },
    };
  };

runStorageContracts("sqlite storage", onMemoryDatabase(), test);
// The caller opens the database, so the adapter must not depend on how.
runStorageContracts(
  "sqlite storage (strict, safeIntegers)",
  onMemoryDatabase(() => new Database(":memory:", { strict: true, safeIntegers: true })),
  test,
);
// node:sqlite (what Deno runs), through the wrapper that presents it as bun:sqlite.
runStorageContracts(
  "sqlite storage via node:sqlite",
  onMemoryDatabase(() => fromNodeSqlite(new DatabaseSync(":memory:"))),
  test,
);

test("sqlite storage reads a pull's rows without their ids", async () => {
  // The contract test of listForExportWithoutIds passes over a store without it; SQLite has it.
  const { storage, teardown } = await onMemoryDatabase()();
  try {
    expect(typeof storage.translations.listForExportWithoutIds).toBe("function");
  } finally {
    await teardown();
  }
});

describe("sqlite storage on a file", () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), "parlance-sqlite-"));
    dirs.push(dir);
    return join(dir, "parlance.db");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const versions = (db: Database) =>
    db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version")
      .all()
      .map((r) => r.version);

  test("data survives closing and reopening the database", async () => {
    const file = tempFile();
    const org = {
      id: crypto.randomUUID(),
      name: "Acme",
      maxTranslations: 5,
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    const first = new Database(file);
    const storage = createSqliteStorage(first);
    expect(storage.shared).toBe(false);
    await storage.orgs.create(org);
    await storage.close();
    // The caller still owns the connection after close().
    expect(first.query("SELECT COUNT(*) AS n FROM organizations").get()).toEqual({ n: 1 });
    first.close();

    const second = new Database(file);
    const reopened = createSqliteStorage(second);
    expect(await reopened.orgs.get(org.id)).toEqual(org);
    expect(second.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    await reopened.close();
    second.close();
  });

  test("migrations are recorded once and idempotent", () => {
    const db = new Database(tempFile());
    const all = SQLITE_MIGRATIONS.map((m) => m.version);
    expect(migrateSqlite(db)).toEqual(all);
    expect(migrateSqlite(db)).toEqual([]);
    createSqliteStorage(db);
    expect(versions(db)).toEqual(all);
    db.close();
  });

  test("a database migrated by a newer release is refused", () => {
    const db = new Database(":memory:");
    migrateSqlite(db);
    db.run("INSERT INTO schema_migrations (version, name) VALUES (9999, 'from the future')");
    expect(() => migrateSqlite(db)).toThrow(/9999/);
    db.close();
  });
});

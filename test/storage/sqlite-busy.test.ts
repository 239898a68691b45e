/**
 * A SQLite database another connection keeps locked (an operator command, a backup) past
 * busy_timeout is "unavailable" (503 with Retry-After), not a bug (500); other errors stay as they are.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { isParlanceError } from "../../core/errors.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { tempDir } from "../support/process.ts";

const T = "2026-01-01T00:00:00.000Z";

test("a write that waits past busy_timeout on another connection's lock rejects with unavailable", async () => {
  const path = join(tempDir(), "busy.sqlite");
  const db = new Database(path);
  const storage = createSqliteStorage(db);
  db.run("PRAGMA busy_timeout = 50");
  await storage.orgs.create({ id: "o1", name: "Org", maxTranslations: null, createdAt: T });
  // A row the database refuses is not an outage.
  const duplicate = await storage.orgs
    .create({ id: "o1", name: "Again", maxTranslations: null, createdAt: T })
    .catch((e) => e);
  expect(duplicate).toBeInstanceOf(Error);
  expect(isParlanceError(duplicate) && duplicate.code === "unavailable").toBe(false);

  const other = new Database(path);
  other.run("BEGIN IMMEDIATE");
  try {
    const refused = await storage.orgs
      .create({ id: "o2", name: "Org 2", maxTranslations: null, createdAt: T })
      .catch((e) => e);
    expect(isParlanceError(refused) && refused.code).toBe("unavailable");
    expect((refused as Error).message).toBe("Storage is unavailable; retry shortly");
    // Reads go on: WAL readers never wait for a writer.
    expect((await storage.orgs.get("o1"))?.name).toBe("Org");
  } finally {
    other.run("ROLLBACK");
    other.close();
  }
  await storage.orgs.create({ id: "o2", name: "Org 2", maxTranslations: null, createdAt: T });
  expect((await storage.orgs.list()).map((o) => o.id)).toEqual(["o1", "o2"]);
  await storage.close();
  db.close();
});

test("a read that fails answers undefined from findByHashNow and getNow (the caller then asks the async method, which refuses)", async () => {
  const db = new Database(join(tempDir(), "now.sqlite"));
  const storage = createSqliteStorage(db);
  // A table the statements cannot find: every read of it fails, as a locked file's would.
  db.run("ALTER TABLE api_keys RENAME TO api_keys_gone");
  db.run("ALTER TABLE projects RENAME TO projects_gone");
  expect(storage.keys.findByHashNow?.("0".repeat(64))).toBeUndefined();
  expect(storage.projects.getNow?.("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  expect(await storage.keys.findByHash("0".repeat(64)).catch((e) => e)).toBeInstanceOf(Error);
  expect(await storage.projects.get("00000000-0000-4000-8000-000000000000").catch((e) => e)).toBeInstanceOf(
    Error,
  );
  await storage.close();
  db.close();
});

/**
 * With a checkpointer, the main connection leaves an import-sized log to it: its first small write
 * after a large commit on the import connection must not copy the log into the file itself (that
 * copy, with two fsyncs, ran on the event loop whenever the checkpointer had not started yet).
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import type { WalCheckpointer } from "../../storage/sqlite/wal-checkpointer.ts";
import { tempDatabaseFile } from "./sqlite-import-fixtures.ts";

const MIB = 1024 * 1024;

test("a small write on the main connection after 100 MiB of log does not checkpoint", async () => {
  const file = tempDatabaseFile("parlance-checkpoint-net-");
  const db = new Database(file);
  const importConnection = new Database(file);
  // A checkpointer that has not run yet: the race the event loop lost.
  const checkpointer: WalCheckpointer = { request: () => {}, close: async () => {} };
  const storage = createSqliteStorage(db, { importConnection, checkpointer });
  try {
    importConnection.run("CREATE TABLE scratch (b BLOB)");
    const blob = new Uint8Array(MIB).fill(7);
    importConnection.transaction(() => {
      for (let i = 0; i < 100; i++) importConnection.run("INSERT INTO scratch VALUES (?)", [blob]);
    })();
    const before = statSync(file).size;
    db.run("INSERT INTO scratch VALUES (x'00')");
    // Checkpointed, the file would have grown by the 100 MiB of the log.
    expect(statSync(file).size - before).toBeLessThan(MIB);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(100 * MIB);
  } finally {
    await storage.close();
    importConnection.close();
    db.close();
  }
});

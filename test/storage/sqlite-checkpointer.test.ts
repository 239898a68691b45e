/**
 * The write-ahead log of a SQLite file is copied back into the file by a worker thread
 * (storage/sqlite/wal-checkpointer.ts), not by the commit of a push on the thread that answers
 * requests: after a push's job is stored, its content reaches the database file without any
 * connection of the storage checkpointing by itself.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { createWalCheckpointer } from "../../storage/sqlite/wal-checkpointer.ts";
import { job, seedProject } from "../contract/fixtures.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const MIB = 1024 * 1024;

test("a stored push's content reaches the database file through the checkpointer", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parlance-sqlite-checkpoint-"));
  dirs.push(dir);
  const file = join(dir, "parlance.db");
  const db = new Database(file);
  const importConnection = new Database(file);
  const checkpointer = createWalCheckpointer(file);
  const storage = createSqliteStorage(db, { importConnection, checkpointer });
  try {
    // 2 MiB: below SQLite's own automatic checkpoint (1,000 pages, about 4 MiB), so without the
    // checkpointer the content would stay in the log and the file would not grow.
    expect(
      db.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint,
    ).toBeGreaterThan(1000);
    const project = await seedProject(storage);
    const before = statSync(file).size;
    const content = new TextEncoder().encode(JSON.stringify({ big: "x".repeat(2 * MIB) }));
    await storage.jobs.create(
      job(project, { payload: { language: "en", importMode: "merge", status: "draft", content } }),
    );
    const deadline = Date.now() + 10_000;
    while (statSync(file).size < before + 2 * MIB && Date.now() < deadline) await Bun.sleep(20);
    expect(statSync(file).size).toBeGreaterThanOrEqual(before + 2 * MIB);
  } finally {
    await checkpointer.close();
    await storage.close();
    importConnection.close();
    db.close();
  }
});

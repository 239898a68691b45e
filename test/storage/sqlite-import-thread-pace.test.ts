/**
 * An import on the import thread keeps pace with it: this thread waits after each chunk of writes
 * until at most THREAD_AHEAD statements are left there, so the messages in flight (each alive here,
 * on its way and there at once) stay a chunk's worth, not a slice's (docs/benchmarks.md, "The
 * import thread, tenth pass").
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createImportThread, type ImportThread } from "../../storage/sqlite/import-thread.ts";
import { IMPORT_CHUNK_ROWS } from "../../storage/sqlite/import-writes.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { THREAD_AHEAD } from "../../storage/sqlite/jobs.ts";
import { commitOf, expectCommitted, seedClaimedJob, T, tempDatabaseFile } from "./sqlite-import-fixtures.ts";

/** The thread, noting the most statements ever queued there right after one was queued. */
function watched(thread: ImportThread) {
  let most = 0;
  const note = () => {
    most = Math.max(most, thread.queued());
  };
  const wrapped: ImportThread = {
    ...thread,
    send(sql, params) {
      thread.send(sql, params);
      note();
    },
    each(plan, shared, rows) {
      thread.each(plan, shared, rows);
      note();
    },
  };
  return { thread: wrapped, most: () => most };
}

test("an import on the thread never has more than a chunk's statements queued beyond THREAD_AHEAD", async () => {
  const file = tempDatabaseFile("parlance-thread-pace-");
  const db = new Database(file);
  const real = createImportThread(file);
  const { thread, most } = watched(real);
  const storage = createSqliteStorage(db, { importThread: thread });
  try {
    await seedClaimedJob({ db, storage });
    const n = 20_000;
    expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(true);
    await expectCommitted({ db, storage }, n);
    // A chunk of new rows is at most 2 × log2(IMPORT_CHUNK_ROWS) statements (the upserts in
    // batches of powers of two, and their entries).
    const chunkStatements = 2 * Math.ceil(Math.log2(IMPORT_CHUNK_ROWS));
    expect(most()).toBeGreaterThan(0);
    expect(most()).toBeLessThanOrEqual(THREAD_AHEAD + chunkStatements);
    expect(real.queued()).toBe(0);
  } finally {
    await storage.close();
    await real.close();
    db.close();
  }
});

/**
 * SQLite storage with an import thread (what `parlance serve` starts on a file under Bun): import
 * jobs commit on a worker thread's own connection while this thread goes on. Readers see nothing of
 * an import until it commits, writes on the main connection meanwhile wait for it instead of
 * failing, a failed statement leaves nothing, and the whole storage contract holds.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createImportThread } from "../../storage/sqlite/import-thread.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { runStorageContracts } from "../contract/index.ts";
import {
  commitOf,
  expectCommitted,
  nextTurn,
  seedClaimedJob,
  T,
  tempDatabaseFile,
} from "./sqlite-import-fixtures.ts";

function open() {
  const file = tempDatabaseFile("parlance-sqlite-thread-");
  const db = new Database(file);
  const importThread = createImportThread(file);
  const storage = createSqliteStorage(db, { importThread });
  return {
    db,
    storage,
    async teardown() {
      await storage.close();
      await importThread.close();
      db.close();
    },
  };
}

runStorageContracts("sqlite storage with an import thread", async () => open(), test);

/** Whether another connection holds the write lock (busy_timeout is 0 while an import runs). */
function threadHoldsLock(db: Database): boolean {
  try {
    db.run("BEGIN IMMEDIATE");
    db.run("ROLLBACK");
    return false;
  } catch {
    return true;
  }
}

test("an import commits on the thread: invisible until it commits, while reads go on and writes wait for it", async () => {
  const opened = open();
  const { db, storage, teardown } = opened;
  try {
    await seedClaimedJob(opened);
    const n = 20_000;
    const commit = commitOf(n);

    let committed = false;
    const completing = storage.jobs.complete("j1", "r1", commit, T).then((ok) => {
      committed = true;
      return ok;
    });
    // While the import is under way, the event loop turns: reads answer and see none of it.
    let turnsWhileOpen = 0;
    let write: Promise<void> | null = null;
    let writeDoneBeforeCommit = false;
    const readFr = () =>
      db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM translations WHERE language = 'fr'").get()?.n;
    while (!committed) {
      await nextTurn();
      if (committed) break;
      // The thread commits at a moment of its own, maybe before `complete` resolves here: a read
      // sees all of the import or nothing of it, never part.
      const size = (await storage.translations.readLanguage("p1", "fr")).size;
      expect([0, n]).toContain(size);
      if (size === 0) turnsWhileOpen++;
      // A write while the thread holds the write lock waits for the import rather than failing.
      if (write || size !== 0 || !threadHoldsLock(db)) continue;
      write = storage.orgs
        .create({ id: "o2", name: "Other", maxTranslations: null, createdAt: T })
        .then(() => {
          // The thread commits before `complete` resolves here: the import is what must be there.
          writeDoneBeforeCommit = readFr() !== n;
        });
    }
    expect(await completing).toBe(true);
    expect(turnsWhileOpen).toBeGreaterThan(0);
    expect(write).not.toBeNull();
    await write;
    expect(writeDoneBeforeCommit).toBe(false);
    expect(await storage.orgs.get("o2")).toMatchObject({ name: "Other" });

    await expectCommitted({ db, storage }, n);
  } finally {
    await teardown();
  }
});

test("a statement that fails on the thread leaves nothing of the import, and the thread goes on", async () => {
  const opened = open();
  const { db, storage, teardown } = opened;
  try {
    await seedClaimedJob(opened);
    const n = 3_000;
    // A status the schema refuses, in a late chunk: the chunks before it were written already.
    const bad = commitOf(n, (i) => (i === n - 10 ? ("bogus" as "approved") : "approved"));
    // Caught, not `expect(…).rejects`: under bun test that never saw the thread's answer arrive.
    const failure = await storage.jobs.complete("j1", "r1", bad, T).catch((e: unknown) => e);
    expect(String(failure)).toContain("CHECK constraint");
    expect((await storage.translations.readLanguage("p1", "fr")).size).toBe(0);
    expect((await storage.jobs.get("j1"))?.status).toBe("running");
    expect(db.query("SELECT COUNT(*) AS n FROM record_history").get()).toEqual({ n: 0 });
    // The main connection writes again, and the next import commits whole.
    await storage.orgs.create({ id: "o2", name: "Other", maxTranslations: null, createdAt: T });
    expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(true);
    expect((await storage.translations.readLanguage("p1", "fr")).size).toBe(n);
    // A run that lost the job writes nothing.
    expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(false);
  } finally {
    await teardown();
  }
});

/**
 * SQLite storage with an import connection (what `parlance serve` opens on a file): import jobs
 * commit on the second connection in slices that yield to the event loop. Readers see nothing of an
 * import until it commits, writes on the main connection meanwhile wait for it instead of failing,
 * and the whole storage contract holds.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
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

function open(betweenSlices?: () => void) {
  const file = tempDatabaseFile("parlance-sqlite-apart-");
  const db = new Database(file);
  const importConnection = new Database(file);
  const storage = createSqliteStorage(db, { importConnection, betweenSlices });
  return {
    db,
    storage,
    async teardown() {
      await storage.close();
      importConnection.close();
      db.close();
    },
  };
}

runStorageContracts("sqlite storage with an import connection", async () => open(), test);

test("betweenSlices runs at each turn an import gives the event loop, inside its transaction", async () => {
  let calls = 0;
  let readsSawNothing = true;
  const { db, storage, teardown } = open(() => {
    calls++;
    // Still inside the import's open transaction: the main connection sees none of it.
    const row = db.query("SELECT count(*) AS n FROM translations").get() as { n: number };
    if (row.n !== 0) readsSawNothing = false;
  });
  try {
    await seedClaimedJob({ db, storage });
    const n = 20_000;
    expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(true);
    expect(calls).toBeGreaterThan(0);
    expect(readsSawNothing).toBe(true);
    await expectCommitted({ db, storage }, n);
  } finally {
    await teardown();
  }
});

test("an import commits apart: invisible until it commits, while reads go on and writes wait for it", async () => {
  const { db, storage, teardown } = open();
  try {
    await seedClaimedJob({ db, storage });
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
    while (!committed) {
      await nextTurn();
      if (committed) break;
      turnsWhileOpen++;
      expect((await storage.translations.readLanguage("p1", "fr")).size).toBe(0);
      expect((await storage.jobs.get("j1"))?.status).toBe("running");
      // A write meanwhile waits for the import rather than failing on its lock.
      write ??= storage.orgs
        .create({ id: "o2", name: "Other", maxTranslations: null, createdAt: T })
        .then(() => {
          writeDoneBeforeCommit = !committed;
        });
    }
    expect(await completing).toBe(true);
    expect(turnsWhileOpen).toBeGreaterThan(0);
    await write;
    expect(writeDoneBeforeCommit).toBe(false);
    expect(await storage.orgs.get("o2")).toMatchObject({ name: "Other" });

    await expectCommitted({ db, storage }, n);
  } finally {
    await teardown();
  }
});

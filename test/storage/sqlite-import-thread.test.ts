/**
 * SQLite storage with an import thread (what `parlance serve` starts on a file under Bun): import
 * jobs commit on a worker thread's own connection while this thread goes on. Readers see nothing of
 * an import until it commits, writes on the main connection meanwhile wait for it instead of
 * failing, a failed statement leaves nothing, and the whole storage contract holds.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImportCommit } from "../../core/ports.ts";
import type { Job } from "../../core/types.ts";
import { createImportThread } from "../../storage/sqlite/import-thread.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { runStorageContracts } from "../contract/index.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync(join(tmpdir(), "parlance-sqlite-thread-"));
  dirs.push(dir);
  const file = join(dir, "parlance.db");
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

const T = "2026-01-01T00:00:00.000Z";
const LATER = "2026-01-01T01:00:00.000Z";
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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

/** An organization, a project with `fr`, and job j1 claimed by run r1. */
async function seed({ db, storage }: ReturnType<typeof open>) {
  await storage.orgs.create({ id: "o1", name: "Org", maxTranslations: null, createdAt: T });
  db.run(
    `INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
     VALUES ('p1', 'o1', 'P', 'en', '["en","fr"]', ?)`,
    [T],
  );
  const job: Job = {
    id: "j1",
    orgId: "o1",
    projectId: "p1",
    type: "import",
    status: "pending",
    runId: "r0",
    summary: { created: 0, updated: 0 },
    errorMessage: null,
    payload: {
      language: "fr",
      importMode: "merge",
      status: "approved",
      content: new TextEncoder().encode("{}"),
    },
    leaseUntil: null,
    attempts: 0,
    createdAt: T,
    updatedAt: T,
  };
  await storage.jobs.create(job);
  expect((await storage.jobs.claimNext("r1", T, LATER))?.id).toBe("j1");
}

/** n new rows of `fr` with their history, as job j1's commit. */
function commitOf(n: number, status = (_i: number) => "approved" as const): ImportCommit {
  const actor = { kind: "operator" as const };
  const writes = Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    key: `k${i}`,
    value: i % 2 === 0 ? `Valeur ${i}` : `Évité ${i}`,
    status: status(i),
  }));
  return {
    projectId: "p1",
    language: "fr",
    writes,
    deleteIds: [],
    summary: { created: n, updated: 0 },
    audit: {
      actor,
      jobId: "j1",
      previous: writes.map(() => null),
      warnings: writes.map(() => []),
      deleted: [],
      rechecks: [],
      activity: {
        id: "a1",
        projectId: "p1",
        action: "import",
        actor,
        jobId: "j1",
        language: "fr",
        key: null,
        detail: { created: n, updated: 0 },
        at: T,
      },
    },
  };
}

test("an import commits on the thread: invisible until it commits, while reads go on and writes wait for it", async () => {
  const opened = open();
  const { db, storage, teardown } = opened;
  try {
    await seed(opened);
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

    const rows = await storage.translations.readLanguage("p1", "fr");
    expect(rows.size).toBe(n);
    expect((await storage.jobs.get("j1"))?.status).toBe("completed");
    const history = db.query("SELECT COUNT(*) AS n FROM record_history WHERE job_id = 'j1'").get();
    expect(history).toEqual({ n });
    // Folded search finds the accented values and the ASCII ones alike.
    const search = (q: string) =>
      storage.records.matchKeys({
        projectId: "p1",
        baseLanguage: "en",
        languages: ["fr"],
        language: "fr",
        projectLanguages: ["en", "fr"],
        filter: { q },
        after: null,
        limit: 100,
      });
    expect(await search("evite 19999")).toEqual(["k19999"]);
    expect(await search("valeur 19998")).toEqual(["k19998"]);
  } finally {
    await teardown();
  }
});

test("a statement that fails on the thread leaves nothing of the import, and the thread goes on", async () => {
  const opened = open();
  const { db, storage, teardown } = opened;
  try {
    await seed(opened);
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

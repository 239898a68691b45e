/**
 * An import's completion frees its job's stored content last, after the import's writes: freed
 * first, the content's pages were the free list the import then took its new pages from, so the
 * free list's trunk pages, written to the log by the import's first cache spills, were written
 * again, and the COMMIT re-signed every log frame from the first of them on, on the event loop
 * (docs/benchmarks.md, "The import stall, eleventh pass"). Seen from outside: the content's pages
 * are still free after the commit, none of them reused by the import.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { commitOf, seedClaimedJob, T, tempDatabaseFile } from "./sqlite-import-fixtures.ts";

const CONTENT_BYTES = 4 * 1024 * 1024;

async function completeWithContent(apart: boolean) {
  const file = tempDatabaseFile("parlance-sqlite-content-last-");
  const db = new Database(file);
  const importConnection = apart ? new Database(file) : undefined;
  const storage = createSqliteStorage(db, { importConnection });
  try {
    await seedClaimedJob({ db, storage }, new Uint8Array(CONTENT_BYTES).fill(0x61));
    const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    const freeBefore = (db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
    // Enough rows and history to need more new pages than the content frees.
    const n = 20_000;
    expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(true);
    expect(db.query("SELECT count(*) AS n FROM job_content_parts").get()).toEqual({ n: 0 });
    expect(db.query("SELECT count(*) AS n FROM record_history").get()).toEqual({ n });
    const free = (db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
    return { freed: free - freeBefore, contentPages: CONTENT_BYTES / pageSize };
  } finally {
    await storage.close();
    importConnection?.close();
    db.close();
  }
}

for (const apart of [true, false]) {
  test(`the content's pages are freed after the import's writes (${apart ? "import connection" : "main connection"})`, async () => {
    const { freed, contentPages } = await completeWithContent(apart);
    // Its pages (and the overflow chains' heads' leaves) are all still free: none went to the import.
    expect(freed).toBeGreaterThanOrEqual(contentPages);
  });
}

/**
 * What the tests of SQLite's second writers share (the import connection, the import thread): a
 * temporary database file, a claimed job to commit, and that job's commit of n new rows.
 */
import type { Database } from "bun:sqlite";
import { afterEach, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImportCommit, Storage } from "../../core/ports.ts";
import type { Job } from "../../core/types.ts";

export const T = "2026-01-01T00:00:00.000Z";
export const LATER = "2026-01-01T01:00:00.000Z";
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file in a folder of its own, removed after the test. */
export function tempDatabaseFile(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return join(dir, "parlance.db");
}

/** Organization o1 and its project p1 (base `en`, with `fr`). */
export async function seedOrgAndProject({ db, storage }: { db: Database; storage: Storage }): Promise<void> {
  await storage.orgs.create({ id: "o1", name: "Org", maxTranslations: null, createdAt: T });
  db.run(
    `INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
     VALUES ('p1', 'o1', 'P', 'en', '["en","fr"]', ?)`,
    [T],
  );
}

/** An organization, a project with `fr`, and job j1 (its stored content given) claimed by run r1. */
export async function seedClaimedJob(
  { db, storage }: { db: Database; storage: Storage },
  content: Uint8Array = new TextEncoder().encode("{}"),
): Promise<void> {
  await seedOrgAndProject({ db, storage });
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
      content,
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
export function commitOf(n: number, status = (_i: number) => "approved" as const): ImportCommit {
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

/** Job j1's commit of `commitOf(n)` is all there: rows, status, history, and folded search. */
export async function expectCommitted({ db, storage }: { db: Database; storage: Storage }, n: number) {
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
  // commitOf: even rows hold "Valeur i", odd ones "Évité i".
  const [even, odd] = n % 2 === 0 ? [n - 2, n - 1] : [n - 1, n - 2];
  expect(await search(`evite ${odd}`)).toEqual([`k${odd}`]);
  expect(await search(`valeur ${even}`)).toEqual([`k${even}`]);
}

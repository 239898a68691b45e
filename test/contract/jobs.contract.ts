import { planImport } from "../../core/import-plan.ts";
import type { ImportCommit, Storage } from "../../core/ports.ts";
import type { Job, Project } from "../../core/types.ts";
import { expect } from "./expect.ts";
import { at, id, importRows, job, must, project, seedProject, writes } from "./fixtures.ts";
import { type StorageSetup, sleep, storageTests, type TestFunction } from "./harness.ts";

/** One stored pending job per project given, created in that order. */
async function createJobs<P extends Project[]>(
  storage: Storage,
  ...projects: P
): Promise<{ [K in keyof P]: Job }> {
  const jobs = projects.map((p) => job(p));
  for (const j of jobs) await storage.jobs.create(j);
  return jobs as { [K in keyof P]: Job };
}

const commitFor = (p: Project, language: string, over: Partial<ImportCommit> = {}): ImportCommit => ({
  projectId: p.id,
  language,
  writes: [],
  deleteIds: [],
  summary: { created: 0, updated: 0 },
  ...over,
});

/**
 * The lease a claim or renewal shows. A single-instance store takes the caller's times as given; a
 * shared store measures leases with its own clock (ports.ts), so only its shape is known.
 */
const leaseShown = (storage: Storage, callerLeaseUntil: string) =>
  storage.shared ? expect.any(String) : callerLeaseUntil;

/** Milliseconds of a lease short enough for a test to outwait on a store's own clock. */
const SHORT_LEASE_MS = 50;

export function jobContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › JobStore`);

  test("get is null when absent; get round-trips every field but the payload, which claimNext hands out", async (storage) => {
    const p = await seedProject(storage);
    expect(await storage.jobs.get(id())).toBeNull();
    const content = JSON.stringify({ big: "é😀\u0000".repeat(100_000), nested: { "a.b": "x" } });
    const j = job(p, {
      payload: {
        language: "fr",
        importMode: "replace",
        status: "needs_review",
        content: new TextEncoder().encode(content),
      },
    });
    await storage.jobs.create(j);
    expect(await storage.jobs.get(j.id)).toEqual({ ...j, payload: null });
    const claimed = await storage.jobs.claimNext(id(), at(1), at(2));
    expect(claimed?.payload).toEqual(j.payload);
  });

  test("create keeps nothing of the content's bytes: the caller may overwrite them once it resolves", async (storage) => {
    const p = await seedProject(storage);
    const text = JSON.stringify({ greeting: "héllo", nested: { farewell: "au revoir" } });
    const content = new TextEncoder().encode(text);
    const payload = { language: "fr", importMode: "merge" as const, status: "approved" as const, content };
    await storage.jobs.create(job(p, { payload }));
    content.fill(0x20); // what the server does with the body is release it; overwriting shows the same
    const claimed = must(await storage.jobs.claimNext(id(), at(1), at(5)));
    expect(claimed.payload).toEqual({ ...payload, content: new TextEncoder().encode(text) });
  });

  test("claimNext leaves out the content of a job the caller holds, and only of that job", async (storage) => {
    const [p, q] = [await seedProject(storage), await seedProject(storage)];
    const content = new TextEncoder().encode(JSON.stringify({ greeting: "héllo" }));
    const payload = { language: "fr", importMode: "merge" as const, status: "approved" as const, content };
    const held = job(p, { payload });
    const other = job(q, { payload });
    await storage.jobs.create(held);
    await storage.jobs.create(other);
    const holding = new Set([held.id]);
    const first = must(await storage.jobs.claimNext(id(), at(1), at(5), holding));
    expect(first.id).toBe(held.id);
    expect(first.payload).toEqual({ ...payload, content: new Uint8Array(0) });
    const second = must(await storage.jobs.claimNext(id(), at(1), at(5), holding));
    expect(second.id).toBe(other.id);
    expect(second.payload).toEqual(payload);
  });

  test("claimNext is null when nothing is claimable", async (storage) => {
    expect(await storage.jobs.claimNext(id(), at(1), at(2))).toBeNull();
  });

  test("claimNext takes jobs in order of creation and marks them running", async (storage) => {
    const [p, q, r] = [await seedProject(storage), await seedProject(storage), await seedProject(storage)];
    const jobs = await createJobs(storage, q, r, p);
    for (const expected of jobs) {
      const runId = id();
      const claimed = await storage.jobs.claimNext(runId, at(1), at(5));
      expect(claimed).toEqual({
        ...expected,
        status: "running",
        runId,
        leaseUntil: leaseShown(storage, at(5)),
        attempts: 1,
        updatedAt: at(1),
      });
      expect(await storage.jobs.get(expected.id)).toEqual({ ...(claimed as Job), payload: null });
    }
    expect(await storage.jobs.claimNext(id(), at(1), at(5))).toBeNull();
  });

  test("a project's next job waits for its older unfinished job; other projects do not", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    const [p1, p2, q1] = await createJobs(storage, p, p, q);
    const run1 = id();
    expect((await storage.jobs.claimNext(run1, at(1), at(5)))?.id).toBe(p1.id);
    expect((await storage.jobs.claimNext(id(), at(1), at(5)))?.id).toBe(q1.id);
    expect(await storage.jobs.claimNext(id(), at(1), at(5))).toBeNull();
    expect(await storage.jobs.fail(p1.id, run1, "boom", at(2))).toBe(true);
    expect((await storage.jobs.claimNext(id(), at(2), at(5)))?.id).toBe(p2.id);
  });

  test("claimNext skips a running job with a live lease and takes one whose lease ended", async (storage) => {
    const p = await seedProject(storage);
    const [j] = await createJobs(storage, p);
    const first = id();
    const second = id();
    let taken: Job | null;
    if (storage.shared) {
      // The store's clock decides: a short lease, then real time passes. The callers' times,
      // hours apart, change nothing.
      const t = Date.parse(at(0));
      const short = (ms: number) => new Date(t + ms).toISOString();
      await storage.jobs.claimNext(first, at(0), short(SHORT_LEASE_MS));
      expect(await storage.jobs.claimNext(id(), at(600), at(605))).toBeNull();
      await sleep(SHORT_LEASE_MS * 3);
      taken = await storage.jobs.claimNext(second, at(-600), at(-595));
    } else {
      await storage.jobs.claimNext(first, at(0), at(5));
      expect(await storage.jobs.claimNext(id(), at(4), at(9))).toBeNull();
      taken = await storage.jobs.claimNext(second, at(6), at(11));
    }
    expect(taken).toMatchObject({
      id: j.id,
      status: "running",
      runId: second,
      leaseUntil: leaseShown(storage, at(11)),
      attempts: 2,
    });
    // The first run lost the job: nothing it does applies any more.
    expect(await storage.jobs.renewLease(j.id, first, at(20), at(7))).toBe(false);
    expect(await storage.jobs.complete(j.id, first, commitFor(p, "en"), at(7))).toBe(false);
    expect(await storage.jobs.fail(j.id, first, "late", at(7))).toBe(false);
    expect(await storage.jobs.get(j.id)).toEqual({ ...(taken as Job), payload: null });
  });

  test("two racing claimNext calls never get the same job", async (storage) => {
    const [p, q] = [await seedProject(storage), await seedProject(storage)];
    const jobs = await createJobs(storage, p, q);
    const claims = await Promise.all([
      storage.jobs.claimNext(id(), at(1), at(5)),
      storage.jobs.claimNext(id(), at(1), at(5)),
    ]);
    expect(claims.map((c) => c?.id).sort()).toEqual(jobs.map((j) => j.id).sort());
  });

  test("of several racing claimNext calls for one job, exactly one wins", async (storage) => {
    const [j] = await createJobs(storage, await seedProject(storage));
    const race = await Promise.all([1, 2, 3].map(() => storage.jobs.claimNext(id(), at(1), at(5))));
    expect(race.filter((c) => c !== null).map((c) => c?.id)).toEqual([j.id]);
  });

  test("renewLease extends the lease of the run that holds the job", async (storage) => {
    const p = await seedProject(storage);
    const [j] = await createJobs(storage, p);
    const runId = id();
    const claimed = must(await storage.jobs.claimNext(runId, at(0), at(5)));
    expect(await storage.jobs.renewLease(j.id, runId, at(10), at(0))).toBe(true);
    const renewed = must((await storage.jobs.get(j.id))?.leaseUntil);
    if (storage.shared) expect(Date.parse(renewed) > Date.parse(must(claimed.leaseUntil))).toBe(true);
    else expect(renewed).toBe(at(10));
    expect(await storage.jobs.claimNext(id(), at(7), at(12))).toBeNull();
    expect(await storage.jobs.renewLease(j.id, id(), at(30), at(7))).toBe(false);
    expect(await storage.jobs.renewLease(id(), runId, at(30), at(7))).toBe(false);
    expect((await storage.jobs.get(j.id))?.leaseUntil).toBe(renewed);
  });

  test("complete applies writes and deletes and finishes the job", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { keep: "old", change: "old", drop: "old" });
    await importRows(storage, p, "fr", { change: "fr" });
    const before = await storage.translations.readLanguage(p.id, "en");
    const frBefore = await storage.translations.listForExport(p.id, "fr", null);
    const [j] = await createJobs(storage, p);
    const runId = id();
    await storage.jobs.claimNext(runId, at(3), at(8));
    const commit = commitFor(p, "en", {
      writes: writes([
        { id: id(), key: "change", value: "new", status: "approved" },
        { id: id(), key: "fresh", value: "new", status: "approved" },
      ]),
      deleteIds: [before.get("drop")?.id ?? ""],
      summary: { created: 1, updated: 1, deleted: 1 },
    });
    expect(await storage.jobs.complete(j.id, runId, commit, at(4))).toBe(true);

    const rows = await storage.translations.listForExport(p.id, "en", null);
    expect(rows.map((t) => [t.key, t.value, t.status])).toEqual([
      ["change", "new", "approved"],
      ["fresh", "new", "approved"],
      ["keep", "old", "draft"],
    ]);
    const changed = rows.find((t) => t.key === "change");
    expect(changed?.id).toBe(before.get("change")?.id ?? "missing");
    const listed = await storage.translations.listPage(p.id, "en", 10, 0);
    expect(listed.items.find((t) => t.key === "change")?.updatedAt).toBe(at(4));
    expect(rows.find((t) => t.key === "fresh")?.id).toBe(commit.writes[1]?.id ?? "missing");
    expect(rows.find((t) => t.key === "keep")?.id).toBe(before.get("keep")?.id ?? "missing");
    expect(await storage.translations.listForExport(p.id, "fr", null)).toEqual(frBefore);
    expect(await storage.jobs.get(j.id)).toEqual({
      ...j,
      status: "completed",
      runId,
      attempts: 1,
      summary: { created: 1, updated: 1, deleted: 1 },
      payload: null,
      leaseUntil: null,
      updatedAt: at(4),
    });
    // A finished job is held by nobody.
    expect(await storage.jobs.complete(j.id, runId, commit, at(5))).toBe(false);
    expect(await storage.jobs.renewLease(j.id, runId, at(9), at(5))).toBe(false);
  });

  test("complete stores the ids of a plan's new rows, made when read", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { kept: "old" });
    const existing = await storage.translations.readLanguage(p.id, "en");
    const plan = planImport(
      new Map([
        ["kept", "new"],
        ["fresh", "new"],
      ]),
      existing,
      "merge",
      "draft",
    );
    const [j] = await createJobs(storage, p);
    const runId = id();
    await storage.jobs.claimNext(runId, at(3), at(8));
    const commit = commitFor(p, "en", { writes: plan.writes, summary: { created: 1, updated: 1 } });
    expect(await storage.jobs.complete(j.id, runId, commit, at(4))).toBe(true);
    const ids = await storage.translations.readLanguage(p.id, "en");
    expect(ids.get("kept")?.id).toBe(existing.get("kept")?.id ?? "missing");
    const fresh = plan.writes.find((w) => w.key === "fresh");
    expect(typeof fresh?.id).toBe("string");
    expect(ids.get("fresh")?.id).toBe(fresh?.id ?? "missing");
  });

  test("complete with a run that does not hold the job writes nothing and returns false", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { a: "old" });
    const before = await storage.translations.listForExport(p.id, "en", null);
    const [j] = await createJobs(storage, p);
    const pending = await storage.jobs.get(j.id);
    const commit = commitFor(p, "en", {
      writes: writes({ a: "new", b: "new" }),
      deleteIds: [before[0]?.id ?? ""],
    });
    expect(await storage.jobs.complete(j.id, id(), commit, at(4))).toBe(false);
    expect(await storage.jobs.get(j.id)).toEqual(pending);
    const claimed = await storage.jobs.claimNext(id(), at(3), at(8));
    expect(await storage.jobs.complete(j.id, id(), commit, at(4))).toBe(false);
    expect(await storage.jobs.complete(id(), claimed?.runId ?? "", commit, at(4))).toBe(false);
    expect(await storage.translations.listForExport(p.id, "en", null)).toEqual(before);
    expect(await storage.jobs.get(j.id)).toEqual({ ...(claimed as Job), payload: null });
  });

  test("fail marks the held job failed with the message", async (storage) => {
    const p = await seedProject(storage);
    const [j] = await createJobs(storage, p);
    const runId = id();
    const claimed = await storage.jobs.claimNext(runId, at(1), at(5));
    expect(await storage.jobs.fail(j.id, id(), "not mine", at(2))).toBe(false);
    expect(await storage.jobs.get(j.id)).toEqual({ ...(claimed as Job), payload: null });
    expect(await storage.jobs.fail(j.id, runId, "Invalid JSON", at(2))).toBe(true);
    expect(await storage.jobs.get(j.id)).toEqual({
      ...must(claimed),
      status: "failed",
      errorMessage: "Invalid JSON",
      payload: null,
      leaseUntil: null,
      updatedAt: at(2),
    });
    expect(await storage.jobs.fail(j.id, runId, "again", at(3))).toBe(false);
  });

  test("countUnfinished counts pending and running jobs, not finished ones", async (storage) => {
    expect(await storage.jobs.countUnfinished()).toBe(0);
    const [p, q, r] = [await seedProject(storage), await seedProject(storage), await seedProject(storage)];
    const [pj, qj] = await createJobs(storage, p, q, r, p);
    expect(await storage.jobs.countUnfinished()).toBe(4);
    const done = id();
    await storage.jobs.claimNext(done, at(1), at(5));
    const failed = id();
    await storage.jobs.claimNext(failed, at(1), at(5));
    expect(await storage.jobs.countUnfinished()).toBe(4);
    await storage.jobs.complete(pj.id, done, commitFor(p, "en"), at(2));
    await storage.jobs.fail(qj.id, failed, "no", at(2));
    expect(await storage.jobs.countUnfinished()).toBe(2);
  });

  test("listByProject: the project's most recent jobs, newest first, without payload; [] when none", async (storage) => {
    const [p, q] = [await seedProject(storage), await seedProject(storage)];
    expect(await storage.jobs.listByProject(p.id, 10)).toEqual([]);
    const [first, , second, third] = await createJobs(storage, p, q, p, p);
    const runId = id();
    await storage.jobs.claimNext(runId, at(1), at(5));
    await storage.jobs.complete(
      first.id,
      runId,
      commitFor(p, "en", { summary: { created: 2, updated: 1 } }),
      at(2),
    );
    const listed = await storage.jobs.listByProject(p.id, 10);
    expect(listed.map((j) => j.id)).toEqual([third.id, second.id, first.id]);
    expect(listed[2]).toEqual(must(await storage.jobs.get(first.id)));
    expect(listed[2]?.status).toBe("completed");
    expect(listed.every((j) => j.payload === null)).toBe(true);
    expect((await storage.jobs.listByProject(p.id, 2)).map((j) => j.id)).toEqual([third.id, second.id]);
  });

  test("releaseLeases makes every running job claimable at once", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    const idle = project(p.orgId, { name: "Idle" });
    await storage.projects.create(idle);
    const [pj, qj] = await createJobs(storage, p, q);
    await storage.jobs.claimNext(id(), at(0), at(60));
    await storage.jobs.claimNext(id(), at(0), at(60));
    const [waiting] = await createJobs(storage, idle);
    expect(await storage.jobs.releaseLeases(at(1))).toBe(2);
    expect((await storage.jobs.get(pj.id))?.leaseUntil).toBeNull();
    expect(await storage.jobs.get(waiting.id)).toEqual({ ...waiting, payload: null });
    const reclaimed = [];
    for (let i = 0; i < 3; i++) reclaimed.push(must(await storage.jobs.claimNext(id(), at(2), at(9))));
    expect(reclaimed.map((j) => [j.id, j.attempts])).toEqual([
      [pj.id, 2],
      [qj.id, 2],
      [waiting.id, 1],
    ]);
    expect(await storage.jobs.releaseLeases(at(3))).toBe(3);
  });
}

/**
 * Jobs never run forever and never block their project (issue 10): a job claimed more times than
 * `jobMaxAttempts` (each attempt died with its process) is failed with a message; a job left
 * `running` because marking it failed threw is found again by polling once its lease ends, without
 * a push or a restart.
 */
import { expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import type { ImportCommit, Storage } from "../../core/ports.ts";
import type { Job } from "../../core/types.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

async function world(storage: Storage, options: { jobMaxAttempts?: number; jobPollMs?: number } = {}) {
  const clock = createFixedClock("2026-06-01T12:00:00.000Z");
  const parlance = createParlance({ storage, clock, ...options });
  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: [],
  });
  const failed: string[] = [];
  parlance.on("job.failed", (e) => void failed.push(e.message));
  return { parlance, clock, org, project, app: parlance.as(org.id), failed };
}

/** A job as a process that died while running it leaves it: running, claimed `attempts` times. */
const crashedJob = (orgId: string, projectId: string, attempts: number): Job => ({
  id: crypto.randomUUID(),
  orgId,
  projectId,
  type: "import",
  status: "running",
  runId: crypto.randomUUID(),
  summary: { created: 0, updated: 0 },
  errorMessage: null,
  payload: {
    language: "en",
    importMode: "merge",
    status: "approved",
    content: new TextEncoder().encode('{"a":"A"}'),
  },
  leaseUntil: "2026-06-01T11:59:00.000Z",
  attempts,
  createdAt: "2026-06-01T11:00:00.000Z",
  updatedAt: "2026-06-01T11:00:00.000Z",
});

test("a job already started jobMaxAttempts times is failed with a message at its next claim", async () => {
  const storage = createMemoryStorage();
  const w = await world(storage, { jobMaxAttempts: 3 });
  const dead = crashedJob(w.org.id, w.project.id, 3);
  const alive = crashedJob(w.org.id, w.project.id, 2);
  await storage.jobs.create(dead);
  await storage.jobs.create(alive);
  await w.parlance.start();
  await w.parlance.idle();
  const job = await w.app.getJob(dead.id);
  expect(job.status).toBe("failed");
  expect(job.errorMessage).toBe(
    "Import failed: it was started 3 times and never finished (the server stopped or lost its database each time), so it is not retried",
  );
  expect(w.failed).toEqual([job.errorMessage as string]);
  // The next job of the project (its third attempt) ran normally.
  expect(await w.app.getJob(alive.id)).toMatchObject({ status: "completed", summary: { created: 1 } });
  expect((await storage.jobs.get(alive.id))?.attempts).toBe(3);
  await w.parlance.close();
});

test("jobMaxAttempts 1: a job whose process died once is not retried", async () => {
  const storage = createMemoryStorage();
  const w = await world(storage, { jobMaxAttempts: 1 });
  const dead = crashedJob(w.org.id, w.project.id, 1);
  await storage.jobs.create(dead);
  await w.parlance.start();
  await w.parlance.idle();
  expect(await w.app.getJob(dead.id)).toMatchObject({
    status: "failed",
    errorMessage:
      "Import failed: it was started 1 time and never finished (the server stopped or lost its database each time), so it is not retried",
  });
  await w.parlance.close();
});

test("a job whose fail() threw is claimed again by polling once its lease ends; its project moves on", async () => {
  const base = createMemoryStorage();
  let breakdowns = 1;
  const jobs = {
    ...base.jobs,
    async complete(id: string, runId: string, commit: ImportCommit, now: string) {
      if (breakdowns > 0) throw new Error("connection lost");
      return base.jobs.complete(id, runId, commit, now);
    },
    async fail(id: string, runId: string, message: string, now: string) {
      if (breakdowns-- > 0) throw new Error("connection lost");
      return base.jobs.fail(id, runId, message, now);
    },
  };
  const w = await world({ ...base, jobs }, { jobPollMs: 10 });
  await w.parlance.start();
  const jobId = async (content: string) => {
    const result = await w.app.push({ projectId: w.project.id, language: "en", content });
    if (result.kind !== "accepted") throw new Error("not accepted");
    return result.accepted.jobId;
  };
  const first = { jobId: await jobId('{"a":"1"}') };
  await w.parlance.idle();
  expect((await w.app.getJob(first.jobId)).status).toBe("running");
  // A second push queues behind it, then the lease ends by the clock: no push, no restart.
  const second = { jobId: await jobId('{"b":"2"}') };
  await w.parlance.idle();
  expect((await w.app.getJob(second.jobId)).status).toBe("pending");
  w.clock.advance(w.parlance.settings.jobLeaseMs + 1);
  await until("both jobs to complete", async () => (await w.app.getJob(second.jobId)).status === "completed");
  expect(await w.app.getJob(first.jobId)).toMatchObject({ status: "completed", summary: { created: 1 } });
  expect((await base.jobs.get(first.jobId))?.attempts).toBe(2);
  await w.parlance.close();
});

/** An import committed through the job store, as the job runner commits one (language en). */
import { expect } from "bun:test";
import type { Storage } from "../../core/ports.ts";
import type { Project, TranslationWrite } from "../../core/types.ts";

const T = "2026-01-01T00:00:00.000Z";

export async function importRows(
  s: Storage,
  p: Project,
  writes: TranslationWrite[],
  deleteIds: string[] = [],
) {
  const jobId = crypto.randomUUID();
  await s.jobs.create({
    id: jobId,
    orgId: p.orgId,
    projectId: p.id,
    type: "import",
    status: "pending",
    runId: "r0",
    summary: { created: 0, updated: 0 },
    errorMessage: null,
    payload: null,
    leaseUntil: null,
    attempts: 0,
    createdAt: T,
    updatedAt: T,
  });
  const runId = crypto.randomUUID();
  expect((await s.jobs.claimNext(runId, T, T.replace("00:00:00", "00:10:00")))?.id).toBe(jobId);
  const commit = {
    projectId: p.id,
    language: "en",
    writes,
    deleteIds,
    summary: { created: writes.length, updated: 0 },
  };
  expect(await s.jobs.complete(jobId, runId, commit, T)).toBe(true);
}

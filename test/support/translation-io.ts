/**
 * Helpers for the push / pull / jobs HTTP suites: send a push, wait for its job, read what is stored.
 */
import { expect } from "bun:test";
import type { TestServer } from "./harness.ts";
import { expectErrorObject } from "./http.ts";

export interface PushTarget {
  key: string;
  projectId: string;
  language?: string;
}

/** POST /api/v1/push (or another path) with `content` as given (a string is sent as is, else JSON-encoded). */
export function sendPush(
  s: TestServer,
  t: PushTarget,
  content: unknown,
  extra: Record<string, unknown> = {},
  path = "/api/v1/push",
): Promise<Response> {
  return s.request(path, {
    method: "POST",
    key: t.key,
    json: {
      content: typeof content === "string" ? content : JSON.stringify(content),
      language: t.language ?? "fr",
      projectId: t.projectId,
      ...extra,
    },
  });
}

export interface JobBody {
  id: string;
  projectId: string;
  type: string;
  status: string;
  summary: Record<string, number>;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/v1/jobs/{id} → its `data`, asserting 200. */
export async function getJob(s: TestServer, key: string, jobId: string): Promise<JobBody> {
  const res = await s.request(`/api/v1/jobs/${jobId}`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: JobBody }).data;
}

/** Pushes (not a dry run), expects 202, waits until the job has run and returns it. */
export async function pushAndWait(
  s: TestServer,
  t: PushTarget,
  content: unknown,
  extra: Record<string, unknown> = {},
): Promise<JobBody> {
  const res = await sendPush(s, t, content, extra);
  if (res.status !== 202) throw new Error(`push answered ${res.status}: ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  await s.idle();
  return getJob(s, t.key, jobId);
}

/** Stored rows of one language as key → value (operator listing, no HTTP). */
export async function storedValues(
  s: TestServer,
  projectId: string,
  language = "fr",
): Promise<Record<string, string>> {
  const rows = await s.parlance.admin.listTranslations(projectId, language);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** Stored rows of one language as key → {id, value, status}. */
export async function storedRows(
  s: TestServer,
  projectId: string,
  language = "fr",
): Promise<Record<string, { id: string; value: string; status: string }>> {
  const rows = await s.parlance.admin.listTranslations(projectId, language);
  return Object.fromEntries(rows.map((r) => [r.key, { id: r.id, value: r.value, status: r.status }]));
}

/** Counts job records created from now on (a refused push must create none). */
export function countJobsCreated(s: TestServer): () => number {
  const jobs = s.parlance.storage.jobs;
  const create = jobs.create.bind(jobs);
  let n = 0;
  jobs.create = (job) => {
    n++;
    return create(job);
  };
  return () => n;
}

/**
 * Holds every job claim until `release()`: a job accepted meanwhile stays `pending`, so a test can
 * change the world between accept and run deterministically.
 */
export function holdJobs(s: TestServer): { release(): void } {
  const jobs = s.parlance.storage.jobs;
  const claimNext = jobs.claimNext.bind(jobs);
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  jobs.claimNext = async (...args) => {
    await gate;
    return claimNext(...args);
  };
  return { release };
}

/** The Error object with `status` (see expectErrorObject), its message containing each fragment. */
export async function expectError(res: Response, status: number, ...fragments: string[]): Promise<string> {
  const body = await expectErrorObject(res, status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  for (const f of fragments) expect(body.error).toContain(f);
  return body.error;
}

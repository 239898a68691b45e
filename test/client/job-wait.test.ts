import { expect, test } from "bun:test";
import type { ClientContext } from "../../server/cli/client/context.ts";
import { createHttp } from "../../server/cli/client/http.ts";
import { POLL_OUTAGE_MS, waitForJob } from "../../server/cli/client/job-wait.ts";

const JOB = "0b6c2d1e-0000-4000-8000-000000000001";
const job = (status: string) =>
  Response.json({
    data: {
      id: JOB,
      projectId: "p",
      type: "import",
      status,
      summary: status === "completed" ? { created: 1, updated: 0 } : null,
      errorMessage: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    },
  });

/** A client whose server answers from `answer(n)` (n: the request's number), on a fake clock. */
function client(answer: (n: number, at: number) => Response | Error) {
  let clock = 1_700_000_000_000;
  let n = 0;
  const stderr: string[] = [];
  const sleep = async (ms: number) => {
    clock += ms;
  };
  const now = () => clock;
  const http = createHttp({
    baseUrl: "http://parlance.test",
    apiKey: "pl_key",
    fetch: async () => {
      const next = answer(n++, clock);
      if (next instanceof Error) throw next;
      return next;
    },
    sleep,
    now,
    random: () => 0.5,
  });
  const ctx: ClientContext = {
    http,
    projectId: "p",
    cwd: "/",
    stdout: { write: () => true },
    stderr: { write: (chunk) => stderr.push(String(chunk)) },
    sleep,
    now,
  };
  return { ctx, stderr, started: clock };
}

test("a server that restarts while the job is polled is waited through: the accepted job's outcome", async () => {
  // Down for 40 s of the fake clock (every request refused), then the job is done.
  const c = client((n, at) =>
    at - 1_700_000_000_000 < 40_000 && n > 0
      ? new Error("ECONNREFUSED")
      : job(n === 0 ? "running" : "completed"),
  );
  const done = await waitForJob(c.ctx, JOB);
  expect(done.status).toBe("completed");
  expect(c.stderr.join("")).toContain(`job ${JOB} was accepted; still waiting for the server`);
});

test("an outage longer than the bound fails, saying the push was accepted", async () => {
  const c = client((n) => (n === 0 ? job("pending") : new Error("ECONNREFUSED")));
  const e = await waitForJob(c.ctx, JOB).catch((x: unknown) => x);
  expect((e as Error).message).toContain(`the push was accepted as job ${JOB}`);
  expect(c.ctx.now() - c.started).toBeGreaterThanOrEqual(POLL_OUTAGE_MS);
});

test("a refusal (4xx) is not waited through", async () => {
  const c = client((n) =>
    n === 0 ? job("pending") : Response.json({ error: "Job not found" }, { status: 404 }),
  );
  const e = await waitForJob(c.ctx, JOB).catch((x: unknown) => x);
  expect((e as Error).message).toContain("Job not found (HTTP 404)");
  expect(c.stderr.join("")).not.toContain("still waiting");
});

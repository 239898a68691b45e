/**
 * GET /api/v1/jobs/{jobId} (API.md jobs, CONTRACT §5): the Import job shape, its states, the
 * errors, and a job that fails.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import { expectError, holdJobs, sendPush, storedValues } from "../support/translation-io.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

await forEachStore((kind) => {
  let s: TestServer, orgId: string, projectId: string, key: string;
  useWorld(kind, (w) => ({ s, orgId, projectId, key } = w));

  async function accept(content: unknown, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await sendPush(s, { key, projectId }, content, extra);
    expect(res.status).toBe(202);
    return ((await res.json()) as { jobId: string }).jobId;
  }

  const poll = (jobId: string, k = key) => s.request(`/api/v1/jobs/${jobId}`, { key: k });

  test("200 {data: Import job} exactly: pending while held, then completed with its summary", async () => {
    const hold = holdJobs(s);
    const jobId = await accept({ a: "1", b: "2" });
    const pending = await poll(jobId);
    expect(pending.status).toBe(200);
    expect(pending.headers.get("content-type")).toStartWith("application/json");
    expect(await pending.json()).toEqual({
      data: {
        id: jobId,
        projectId,
        type: "import",
        status: "pending",
        summary: { created: 0, updated: 0 },
        errorMessage: null,
        createdAt: "2026-06-01T12:00:00.000Z",
        updatedAt: "2026-06-01T12:00:00.000Z",
      },
    });
    s.clock.advance(5_000);
    hold.release();
    await s.idle();
    const done = (await (await poll(jobId)).json()) as { data: Record<string, unknown> };
    expect(done).toEqual({
      data: {
        id: jobId,
        projectId,
        type: "import",
        status: "completed",
        summary: { created: 2, updated: 0 },
        errorMessage: null,
        createdAt: "2026-06-01T12:00:00.000Z",
        updatedAt: expect.stringMatching(ISO),
      },
    });
    expect(Date.parse(done.data.updatedAt as string)).toBe(Date.parse("2026-06-01T12:00:05.000Z"));
  });

  test("a replace job's summary also carries deleted", async () => {
    await accept({ a: "1", b: "2" });
    await s.idle();
    const jobId = await accept({ c: "3" }, { importMode: "replace" });
    await s.idle();
    expect(await (await poll(jobId)).json()).toEqual({
      data: {
        id: jobId,
        projectId,
        type: "import",
        status: "completed",
        summary: { created: 1, updated: 0, deleted: 2 },
        errorMessage: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
  });

  test("a jobId that is not a UUID → 400", async () => {
    for (const bad of ["not-a-uuid", "123", `${crypto.randomUUID()}x`]) {
      await expectError(await poll(bad), 400, "jobId");
    }
  });

  test("an unknown job → 404", async () => {
    await expectError(await poll(crypto.randomUUID()), 404);
  });

  test("another organization's job → 404", async () => {
    const jobId = await accept({ a: "1" });
    await s.idle();
    const stranger = await s.seed.world();
    await expectError(await poll(jobId, stranger.key.key), 404);
    // A key of the same organization sees it.
    const colleague = await s.seed.key(orgId, { scopes: ["translations:read"] });
    expect((await poll(jobId, colleague.key)).status).toBe(200);
  });

  test("needs translations:read: 403 for any other scope set, 401 without a key", async () => {
    const jobId = await accept({ a: "1" });
    await s.idle();
    const others = SCOPES.filter((scope) => scope !== "translations:read");
    const withoutRead = await s.seed.key(orgId, { scopes: others });
    await expectError(await poll(jobId, withoutRead.key), 403);
    // Scope is checked before the id: even an invalid id is 403 for such a key.
    await expectError(await poll("not-a-uuid", withoutRead.key), 403);
    await expectError(await s.request(`/api/v1/jobs/${jobId}`), 401);
  });

  test("a job whose project was deleted after it was accepted ends failed with an errorMessage", async () => {
    const hold = holdJobs(s);
    const jobId = await accept({ a: "1" });
    await s.parlance.admin.deleteProject(projectId);
    hold.release();
    await s.idle();
    expect(await (await poll(jobId)).json()).toEqual({
      data: {
        id: jobId,
        projectId,
        type: "import",
        status: "failed",
        summary: { created: 0, updated: 0 },
        errorMessage: expect.stringMatching(/deleted/),
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
  });

  test("a job that the quota, lowered after it was accepted, no longer allows ends failed and writes nothing", async () => {
    const hold = holdJobs(s);
    const jobId = await accept({ a: "1", b: "2" });
    await s.parlance.admin.setQuota(orgId, 1);
    hold.release();
    await s.idle();
    const job = ((await (await poll(jobId)).json()) as { data: Record<string, unknown> }).data;
    expect(job.status).toBe("failed");
    expect(job.errorMessage).toEqual(expect.stringContaining("quota"));
    expect(await storedValues(s, projectId)).toEqual({});
    // A failed job does not hold up the project's next push.
    await s.parlance.admin.setQuota(orgId, 10);
    const next = await accept({ c: "3" });
    await s.idle();
    expect(((await (await poll(next)).json()) as { data: { status: string } }).data.status).toBe("completed");
    expect(await storedValues(s, projectId)).toEqual({ c: "3" });
  });
});

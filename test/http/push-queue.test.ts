/**
 * A bounded job queue (issue 10): once the store holds `maxQueuedJobs` unfinished imports, a push is
 * refused with 429, Retry-After and the Error object, is not counted in usageCount, and writes
 * nothing; a dry run, which queues nothing, still answers. Push may answer 429 (API.md), not 503.
 */
import { describe, expect, test } from "bun:test";
import { forEachStore, type StoreKind, startTestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";

const LIMIT = 3;

await forEachStore((kind: StoreKind) => {
  describe("a full import queue", () => {
    test("refuses further pushes with 429 and Retry-After; nothing is queued or counted", async () => {
      const s = await startTestServer(kind, { maxQueuedJobs: LIMIT, holdJobs: true });
      try {
        const { project, key } = await s.seed.world();
        const push = (content: string, extra: Record<string, unknown> = {}) =>
          s.request("/api/v1/push", {
            method: "POST",
            key: key.key,
            json: { projectId: project.id, language: "fr", content, ...extra },
          });
        for (let i = 0; i < LIMIT; i++) expect((await push(`{"k${i}":"v"}`)).status).toBe(202);
        const refused = await push('{"late":"v"}');
        expect(refused.status).toBe(429);
        expect(refused.headers.get("retry-after")).toBe("10");
        // The key's own window is far from spent: the headers say so, and clients wait Retry-After.
        expect(Number(refused.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);
        await expectErrorObject(refused, 429, {
          message: `Too many imports are waiting (${LIMIT}); retry in 10 s`,
        });
        expect(await s.parlance.storage.jobs.countUnfinished()).toBe(LIMIT);

        const preview = await push('{"late":"v"}', { dryRun: true });
        expect(preview.status).toBe(200);
        // Served: the three pushes, the preview and this request; the refused push is not counted.
        const info = await s.request("/api/v1/test", { key: key.key });
        expect(((await info.json()) as { data: { usageCount: number } }).data.usageCount).toBe(LIMIT + 2);
      } finally {
        await s.close();
      }
    });

    test("a flood of concurrent pushes: at most the bound is accepted, every other one is 429", async () => {
      const s = await startTestServer(kind, { maxQueuedJobs: 20, holdJobs: true });
      try {
        const { project, key } = await s.seed.world();
        const answers = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            s.request("/api/v1/push", {
              method: "POST",
              key: key.key,
              json: { projectId: project.id, language: "fr", content: `{"k${i}":"v"}` },
            }),
          ),
        );
        const statuses = answers.map((r) => r.status);
        expect(statuses.every((code) => code === 202 || code === 429)).toBe(true);
        // Places are held from the queue check to the stored job, so racing pushes never overshoot
        // (a count that races a stored job may refuse one early: the bound is never passed).
        const accepted = statuses.filter((code) => code === 202).length;
        expect(accepted).toBeLessThanOrEqual(20);
        expect(accepted).toBeGreaterThan(0);
        expect(await s.parlance.storage.jobs.countUnfinished()).toBe(accepted);
      } finally {
        await s.close();
      }
    });
  });
});

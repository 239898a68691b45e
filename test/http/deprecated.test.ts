/**
 * Deprecated aliases (API.md Versioning, CONTRACT §7, §11): GET /export and POST /import answer as
 * pull and push, and every answer of theirs, errors included, carries Deprecation and Link.
 */
import { describe, expect, test } from "bun:test";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import { expectError, getJob, pushAndWait, sendPush } from "../support/translation-io.ts";

const DEPRECATION = "@1767225600";
const EXPORT_LINK = '</api/v1/pull>; rel="successor-version"';
const IMPORT_LINK = '</api/v1/push>; rel="successor-version"';

function expectDeprecated(res: Response, link: string): void {
  expect({
    status: res.status,
    deprecation: res.headers.get("deprecation"),
    link: res.headers.get("link"),
    sunset: res.headers.get("sunset"),
  }).toEqual({ status: res.status, deprecation: DEPRECATION, link, sunset: null });
}

function expectCurrent(res: Response): void {
  expect([res.headers.get("deprecation"), res.headers.get("link"), res.headers.get("sunset")]).toEqual([
    null,
    null,
    null,
  ]);
}

await forEachStore((kind) => {
  let s: TestServer, orgId: string, projectId: string, key: string;
  useWorld(kind, (w) => ({ s, orgId, projectId, key } = w));

  const get = (
    path: string,
    params: Record<string, string>,
    init: { key?: string; headers?: HeadersInit } = {},
  ) => s.request(`${path}?${new URLSearchParams(params)}`, { key, ...init });

  describe("GET /api/v1/export", () => {
    test("answers as pull: same status, body and headers, plus Deprecation and Link", async () => {
      await pushAndWait(s, { key, projectId }, { b: "2", a: "1" });
      for (const format of ["json", "csv", "xliff", "xml", "yaml"]) {
        const params = { project_id: projectId, language: "fr", format };
        const current = await get("/api/v1/pull", params);
        const alias = await get("/api/v1/export", params);
        expect(alias.status).toBe(200);
        expectDeprecated(alias, EXPORT_LINK);
        expectCurrent(current);
        for (const h of ["content-type", "content-disposition", "etag"]) {
          expect(alias.headers.get(h)).toBe(current.headers.get(h) as string);
        }
        expect(await alias.text()).toBe(await current.text());
      }
      const etag = (await get("/api/v1/export", { project_id: projectId, language: "fr" })).headers.get(
        "etag",
      );
      const notModified = await get(
        "/api/v1/export",
        { project_id: projectId, language: "fr" },
        { headers: { "if-none-match": etag as string } },
      );
      expect(notModified.status).toBe(304);
      expectDeprecated(notModified, EXPORT_LINK);
    });

    test("every error carries the headers too: 400, 401, 403, 404, 405, 429", async () => {
      const answers: [Response, number][] = [
        [await get("/api/v1/export", { project_id: "nope", language: "fr" }), 400],
        [await get("/api/v1/export", { project_id: projectId, language: "fr_FR" }), 400],
        [await get("/api/v1/export", { project_id: projectId, language: "fr" }, { key: undefined }), 401],
        [await get("/api/v1/export", { project_id: projectId, language: "fr" }, { key: "pl_bad" }), 401],
        [await get("/api/v1/export", { project_id: crypto.randomUUID(), language: "fr" }), 404],
        [await get("/api/v1/export", { project_id: projectId, language: "fr" }), 404],
        [await s.request("/api/v1/export", { method: "POST", key, json: {} }), 405],
        [await s.request("/api/v1/export", { method: "DELETE" }), 405],
      ];
      const reader = await s.seed.key(orgId, { scopes: ["translations:read"] });
      answers.push([
        await get("/api/v1/export", { project_id: projectId, language: "fr" }, { key: reader.key }),
        403,
      ]);
      const limited = await s.seed.key(orgId, { rateLimit: 1 });
      await get("/api/v1/export", { project_id: projectId, language: "fr" }, { key: limited.key });
      answers.push([
        await get("/api/v1/export", { project_id: projectId, language: "fr" }, { key: limited.key }),
        429,
      ]);
      for (const [res, status] of answers) {
        expectDeprecated(res, EXPORT_LINK);
        await expectError(res, status);
      }
    });
  });

  describe("POST /api/v1/import", () => {
    test("answers as push: dry run 200, then 202 with Location and a job that completes", async () => {
      const preview = await sendPush(s, { key, projectId }, { a: "1" }, { dryRun: true }, "/api/v1/import");
      expectDeprecated(preview, IMPORT_LINK);
      expect(await preview.json()).toEqual({
        dryRun: true,
        importMode: "merge",
        language: "fr",
        rowCount: 1,
        toCreate: 1,
        toUpdate: 0,
        unchanged: 0,
      });
      const res = await sendPush(s, { key, projectId }, { a: "1", b: "2" }, {}, "/api/v1/import");
      expect(res.status).toBe(202);
      expectDeprecated(res, IMPORT_LINK);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(res.headers.get("location")).toBe(`/api/v1/jobs/${jobId}`);
      await s.idle();
      expect(await getJob(s, key, jobId)).toMatchObject({
        status: "completed",
        summary: { created: 2, updated: 0 },
      });
      const current = await sendPush(s, { key, projectId }, { a: "1" }, { dryRun: true });
      expectCurrent(current);
      const job = await s.request(`/api/v1/jobs/${jobId}`, { key });
      expectCurrent(job);
    });

    test("every error carries the headers too: 400, 401, 402, 403, 404, 405, 413", async () => {
      const push = (content: unknown, extra: Record<string, unknown> = {}, k = key) =>
        sendPush(s, { key: k, projectId }, content, extra, "/api/v1/import");
      const answers: [Response, number][] = [
        [await push("[]"), 400],
        [await push({ a: "x" }, { language: "es" }), 400],
        [
          await s.request("/api/v1/import", {
            method: "POST",
            key,
            body: "{",
            headers: { "content-type": "application/json" },
          }),
          400,
        ],
        [await s.request("/api/v1/import", { method: "POST", json: {} }), 401],
        [await push({ a: "x" }, { projectId: crypto.randomUUID() }), 404],
        [await s.request("/api/v1/import", { key }), 405],
        [await push(`{"k":"${"x".repeat(12 * 1024 * 1024)}"}`), 413],
      ];
      const reader = await s.seed.key(orgId, { scopes: ["translations:read", "export:read"] });
      answers.push([await push({ a: "x" }, {}, reader.key), 403]);
      await s.parlance.admin.setQuota(orgId, 0);
      answers.push([await push({ a: "x" }), 402]);
      for (const [res, status] of answers) {
        expectDeprecated(res, IMPORT_LINK);
        await expectError(res, status);
      }
    });
  });

  test("pull and push carry no Deprecation header, errors included", async () => {
    const answers = [
      await get("/api/v1/pull", { project_id: projectId, language: "fr" }),
      await get("/api/v1/pull", { project_id: "x", language: "fr" }, { key: undefined }),
      await s.request("/api/v1/pull", { method: "POST", key }),
      await sendPush(s, { key, projectId }, "[]"),
      await s.request("/api/v1/push", { method: "POST" }),
      await s.request("/api/v1/push", { key }),
    ];
    for (const res of answers) expectCurrent(res);
  });
});

import { describe, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer, useWorld, type World } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";

type Init = RequestInit & { key?: string; json?: unknown };

/** The framework's own dumps look like JSON or name its internals; ours are one sentence. */
function expectNoDump(message: string) {
  expect(message.trim()).not.toMatch(/^[[{]/);
  expect(message).not.toMatch(/"type"\s*:|"on"\s*:|ValidationError|TypeBox|\n/);
}

await forEachStore((kind) => {
  let s: TestServer, world: World["seeded"];
  useWorld(kind, (w) => ({ s, seeded: world } = w));

  describe("routing comes first", () => {
    test("an unknown route is 404 with a valid key, an invalid key or none", async () => {
      const paths = [
        "/api/v1/nowhere",
        "/api/v1",
        "/api/v1/",
        "/api/v1/projects/extra",
        "/api/v2/test",
        "/nowhere",
      ];
      for (const path of paths) {
        for (const key of [world.key.key, "garbage", undefined]) {
          for (const method of ["GET", "POST", "DELETE"]) {
            const res = await s.request(path, { key, method });
            expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
            expect(res.headers.get("www-authenticate")).toBeNull();
            expectNoDump((await expectErrorObject(res, 404)).error);
          }
        }
      }
    });

    test("a wrong method is 405 with Allow, with or without a key", async () => {
      const jobs = `/api/v1/jobs/${crypto.randomUUID()}`;
      const cases: [string, string, string][] = [
        ["POST", "/api/v1/test", "GET"],
        ["PUT", "/api/v1/project", "GET"],
        ["GET", "/api/v1/push", "POST"],
        ["DELETE", "/api/v1/pull", "GET"],
        ["PATCH", jobs, "GET"],
        ["DELETE", "/api/v1/api-keys", "GET, POST"],
        ["GET", "/api/v1/auth/token", "POST"],
        ["GET", "/api/v1/import", "POST"],
      ];
      for (const [method, path, allow] of cases) {
        for (const key of [world.key.key, undefined]) {
          const res = await s.request(path, { method, key });
          expect({ method, path, status: res.status, allow: res.headers.get("allow") }).toEqual({
            method,
            path,
            status: 405,
            allow,
          });
          expectNoDump((await expectErrorObject(res, 405)).error);
        }
      }
    });
  });

  describe("bodies", () => {
    test("a body that is not JSON is 400", async () => {
      for (const path of ["/api/v1/push", "/api/v1/import", "/api/v1/api-keys"]) {
        for (const body of ["{", "not json", '{"a":1,}', ""]) {
          const res = await s.request(path, {
            method: "POST",
            key: world.key.key,
            headers: { "content-type": "application/json" },
            body,
          });
          expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
          expectNoDump((await expectErrorObject(res, 400)).error);
        }
      }
    });

    test("JSON that is not an object is 400", async () => {
      for (const json of [[], "text", 42, null]) {
        const res = await s.request("/api/v1/push", { method: "POST", key: world.key.key, json });
        expectNoDump((await expectErrorObject(res, 400)).error);
      }
    });
  });

  describe("validation", () => {
    const pid = () => world.project.id;
    const push = (extra: Record<string, unknown>) => ({
      method: "POST",
      json: { content: "{}", language: "fr", projectId: pid(), ...extra },
    });
    const cases: [string, () => [string, Init?], string][] = [
      ["project_id not a UUID on /project", () => ["/api/v1/project?project_id=abc"], "project_id"],
      ["project_id missing on /pull", () => ["/api/v1/pull?language=fr"], "project_id"],
      ["project_id invalid on /pull", () => ["/api/v1/pull?project_id=1&language=fr"], "project_id"],
      ["language missing on /pull", () => [`/api/v1/pull?project_id=${pid()}`], "language"],
      ["language malformed on /pull", () => [`/api/v1/pull?project_id=${pid()}&language=f_r!`], "language"],
      ["project_id missing on /coverage", () => ["/api/v1/coverage"], "project_id"],
      ["jobId not a UUID", () => ["/api/v1/jobs/123"], "jobId"],
      ["projectId not a UUID on /push", () => ["/api/v1/push", push({ projectId: "p" })], "projectId"],
      ["projectId missing on /push", () => ["/api/v1/push", push({ projectId: undefined })], "projectId"],
      ["content missing on /push", () => ["/api/v1/push", push({ content: undefined })], "content"],
      ["content not a string", () => ["/api/v1/push", push({ content: { a: "b" } })], "content"],
      ["dryRun not a boolean", () => ["/api/v1/push", push({ dryRun: "maybe" })], "dryRun"],
      ["importMode unknown", () => ["/api/v1/push", push({ importMode: "overwrite" })], "importMode"],
      ["status unknown", () => ["/api/v1/push", push({ status: "done" })], "status"],
      ["limit 0", () => ["/api/v1/api-keys?limit=0"], "limit"],
      ["limit 101", () => ["/api/v1/api-keys?limit=101"], "limit"],
      ["limit not a number", () => ["/api/v1/api-keys?limit=ten"], "limit"],
      ["limit fractional", () => ["/api/v1/api-keys?limit=1.5"], "limit"],
      ["offset negative", () => ["/api/v1/api-keys?offset=-1"], "offset"],
      [
        "translations limit 1001",
        () => [`/api/v1/translations?project_id=${pid()}&language=fr&limit=1001`],
        "limit",
      ],
      [
        "api-key scopes unknown",
        () => ["/api/v1/api-keys", { method: "POST", json: { name: "a", scopes: ["root"] } }],
        "scopes",
      ],
      [
        "api-key name missing",
        () => ["/api/v1/api-keys", { method: "POST", json: { scopes: ["admin"] } }],
        "name",
      ],
      [
        "api-key rateLimit 0",
        () => ["/api/v1/api-keys", { method: "POST", json: { name: "a", scopes: ["admin"], rateLimit: 0 } }],
        "rateLimit",
      ],
    ];
    for (const [name, make, field] of cases) {
      test(`${name}: 400 naming ${field}`, async () => {
        const [path, init] = make();
        const res = await s.request(path, { ...init, key: world.key.key });
        const body = await expectErrorObject(res, 400, { message: field });
        expectNoDump(body.error);
      });
    }
  });

  describe("details", () => {
    const failingStorage = (t: TestServer) => {
      t.parlance.storage.projects.listByOrg = () => Promise.reject(new Error("disk on fire"));
    };

    test("production never carries details: not on 400, 404, 405 nor 500", async () => {
      const key = world.key.key;
      await expectErrorObject(await s.request("/api/v1/project?project_id=x", { key }), 400);
      await expectErrorObject(
        await s.request("/api/v1/push", { method: "POST", key, json: { content: 1 } }),
        400,
      );
      await expectErrorObject(await s.request("/api/v1/nowhere", { key }), 404);
      await expectErrorObject(await s.request("/api/v1/test", { method: "POST", key }), 405);
      failingStorage(s);
      const res = await s.request("/api/v1/projects", { key });
      const body = await expectErrorObject(res, 500);
      expect(body.error).not.toContain("disk on fire");
    });

    test("development adds details to validation errors and 500s", async () => {
      const dev = await startTestServer(kind, { development: true });
      try {
        const { key } = (await dev.seed.world()).key;
        const invalid = await dev.request("/api/v1/project?project_id=x", { key });
        const body = await expectErrorObject(invalid, 400, { details: true, message: "project_id" });
        expectNoDump(body.error);
        failingStorage(dev);
        const failed = await expectErrorObject(await dev.request("/api/v1/projects", { key }), 500, {
          details: true,
        });
        expect(failed.details).toContain("disk on fire");
        expect(failed.error).not.toContain("disk on fire");
      } finally {
        await dev.close();
      }
    });
  });
});

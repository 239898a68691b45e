/**
 * Edges an outside examiner probes: trailing slashes, which check wins when several apply, the
 * token endpoint's anonymous limiter on its error paths, and identifiers as users type them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";

await forEachStore((kind) => {
  let s: TestServer;
  afterEach(() => s.close());

  describe("trailing slashes", () => {
    test("a deprecated alias with a trailing slash still carries Deprecation and Link, errors included", async () => {
      s = await startTestServer(kind);
      const { project, key } = await s.seed.world();
      const ok = await s.request(`/api/v1/export/?project_id=${project.id}&language=fr`, { key: key.key });
      const anonymous = await s.request("/api/v1/export/");
      const dry = await s.request("/api/v1/import/", {
        method: "POST",
        key: key.key,
        json: { projectId: project.id, language: "fr", content: '{"a":"b"}', dryRun: true },
      });
      for (const res of [ok, anonymous, dry]) {
        expect(res.headers.get("deprecation")).toBe("@1767225600");
      }
      expect(ok.headers.get("link")).toBe('</api/v1/pull>; rel="successor-version"');
      expect(dry.headers.get("link")).toBe('</api/v1/push>; rel="successor-version"');
      expect(anonymous.status).toBe(401);
      expect(dry.status).toBe(200);
    });

    test("a wrong method on a path with a trailing slash is 405 with Allow", async () => {
      s = await startTestServer(kind);
      const res = await s.request("/api/v1/test/", { method: "POST" });
      await expectErrorObject(res, 405);
      expect(res.headers.get("allow")).toBe("GET");
    });
  });

  describe("which check wins", () => {
    test("a key without translations:write gets 403 for a push whose body is not JSON", async () => {
      s = await startTestServer(kind);
      const org = await s.seed.org();
      const reader = await s.seed.key(org.id, { scopes: ["translations:read"] });
      const res = await s.request("/api/v1/push", {
        method: "POST",
        key: reader.key,
        headers: { "content-type": "application/json" },
        body: "{bad",
      });
      await expectErrorObject(res, 403);
    });

    test("with the scope, the same body is 400 naming the problem", async () => {
      s = await startTestServer(kind);
      const { key } = await s.seed.world();
      const res = await s.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        headers: { "content-type": "application/json" },
        body: "{bad",
      });
      expect((await expectErrorObject(res, 400)).error).toContain("not valid JSON");
    });
  });

  describe("the token endpoint's anonymous limiter", () => {
    test("wrong methods and unreadable bodies are charged to the address and refused once it is spent", async () => {
      s = await startTestServer(kind, { anonRateLimit: 2 });
      const wrong = await s.request("/api/v1/auth/token");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("x-ratelimit-remaining")).toBe("1");
      const unreadable = await s.request("/api/v1/auth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{bad",
      });
      expect(unreadable.status).toBe(400);
      expect(unreadable.headers.get("x-ratelimit-remaining")).toBe("0");
      const refused = await s.request("/api/v1/auth/token");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).not.toBeNull();
    });
  });

  describe("identifiers as users type them", () => {
    test("an upper-case project id names the same project", async () => {
      s = await startTestServer(kind);
      const { project, key } = await s.seed.world();
      const res = await s.request(`/api/v1/project?project_id=${project.id.toUpperCase()}`, { key: key.key });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { id: string } }).data.id).toBe(project.id);
    });

    test("key names count characters, not UTF-16 units: 100 emoji are a valid name, 101 are not", async () => {
      s = await startTestServer(kind);
      const { key } = await s.seed.world();
      const create = (name: string) =>
        s.request("/api/v1/api-keys", { method: "POST", key: key.key, json: { name, scopes: ["admin"] } });
      expect((await create("😀".repeat(100))).status).toBe(201);
      await expectErrorObject(await create("😀".repeat(101)), 400);
    });
  });
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { forEachStore, type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject, expectRateHeaders, unixSeconds } from "../support/http.ts";

const HOUR = 3600_000;
const ANON_LIMIT = 3;

await forEachStore((kind) => {
  let s: TestServer;
  let world: Awaited<ReturnType<TestServer["seed"]["world"]>>;
  let key: SeededKey;
  beforeEach(async () => {
    s = await startTestServer(kind, { anonRateLimit: ANON_LIMIT });
    world = await s.seed.world();
    key = await s.seed.key(world.orgId, { rateLimit: 50 });
  });
  afterEach(() => s.close());

  const usageOf = async (id: string) => {
    const res = await s.request("/api/v1/api-keys?limit=100", { key: world.key.key });
    const list = (await res.json()) as { data: { id: string; usageCount: number }[] };
    return list.data.find((k) => k.id === id)?.usageCount;
  };

  describe("headers", () => {
    test("limit is the key's, remaining decrements, reset is the end of the window started by the first request", async () => {
      const start = s.clock.now();
      const first = await s.request("/api/v1/test", { key: key.key });
      expectRateHeaders(first, { limit: 50, remaining: 49, reset: unixSeconds(start, HOUR) });
      s.clock.advance(10 * 60_000);
      const second = await s.request("/api/v1/test", { key: key.key });
      expectRateHeaders(second, { limit: 50, remaining: 48, reset: unixSeconds(start, HOUR) });
    });

    test("every authenticated /api/v1 answer carries the key's headers, whatever its status", async () => {
      const reader = await s.seed.key(world.orgId, { scopes: ["translations:read"], rateLimit: 50 });
      const rows = Object.fromEntries(Array.from({ length: 50_001 }, (_, i) => [`k${i}`, "v"]));
      const cases: [number, string, RequestInit & { key: string; json?: unknown }][] = [
        [200, "/api/v1/test", { key: reader.key }],
        [400, "/api/v1/project?project_id=nope", { key: reader.key }],
        [403, "/api/v1/api-keys", { key: reader.key }],
        [404, "/api/v1/nowhere", { key: reader.key }],
        [404, `/api/v1/project?project_id=${crypto.randomUUID()}`, { key: reader.key }],
        [405, "/api/v1/test", { key: reader.key, method: "DELETE" }],
        [200, "/api/v1/openapi.json", { key: reader.key }],
        [200, "/api/v1/docs", { key: reader.key }],
      ];
      let remaining = 50;
      for (const [status, path, init] of cases) {
        const res = await s.request(path, init);
        expect({ path, status: res.status }).toEqual({ path, status });
        expectRateHeaders(res, { limit: 50, remaining: --remaining });
      }
      const big = { content: JSON.stringify(rows), language: "fr", projectId: world.project.id };
      const tooLarge = await s.request("/api/v1/push", { method: "POST", key: key.key, json: big });
      await expectErrorObject(tooLarge.clone(), 413, { message: "Payload too large" });
      expectRateHeaders(tooLarge, { limit: 50, remaining: 49 });
      const huge = await s.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        headers: { "content-type": "application/json" },
        body: "x".repeat(13 * 1024 * 1024 + 1),
      });
      await expectErrorObject(huge.clone(), 413, { message: "Payload too large" });
      expectRateHeaders(huge, { limit: 50, remaining: 48 });
      const notJson = await s.request("/api/v1/push", {
        method: "POST",
        key: key.key,
        headers: { "content-type": "application/json" },
        body: "{",
      });
      await expectErrorObject(notJson.clone(), 400);
      expectRateHeaders(notJson, { limit: 50, remaining: 47 });
    });

    test("unauthenticated answers (401, unknown routes, documents) carry the address limiter's headers", async () => {
      const start = s.clock.now();
      const cases: [number, string, RequestInit?][] = [
        [401, "/api/v1/test"],
        [404, "/api/v1/nowhere"],
        [200, "/api/v1/openapi.json"],
      ];
      let remaining = ANON_LIMIT;
      for (const [status, path, init] of cases) {
        const res = await s.request(path, init);
        expect({ path, status: res.status }).toEqual({ path, status });
        expectRateHeaders(res, {
          limit: ANON_LIMIT,
          remaining: --remaining,
          reset: unixSeconds(start, HOUR),
        });
      }
      const refused = await s.request("/api/v1/docs");
      await expectErrorObject(refused.clone(), 429);
      expectRateHeaders(refused, { limit: ANON_LIMIT, remaining: 0 });
    });

    test("a wrong method without a key (405) carries headers", async () => {
      const res = await s.request("/api/v1/projects", { method: "POST" });
      expect(res.status).toBe(405);
      expectRateHeaders(res, { limit: ANON_LIMIT, remaining: ANON_LIMIT - 1 });
    });

    test("/healthz has no rate-limit headers", async () => {
      const res = await s.request("/healthz", { key: key.key });
      expect(res.status).toBe(200);
      for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
        expect(res.headers.get(h)).toBeNull();
      }
    });
  });

  describe("per-key limit", () => {
    test("429 with Retry-After and the Error object once the window is spent", async () => {
      const small = await s.seed.key(world.orgId, { rateLimit: 2 });
      const start = s.clock.now();
      expectRateHeaders(await s.request("/api/v1/test", { key: small.key }), { limit: 2, remaining: 1 });
      expectRateHeaders(await s.request("/api/v1/test", { key: small.key }), { limit: 2, remaining: 0 });
      s.clock.advance(10 * 60_000);
      const refused = await s.request("/api/v1/test", { key: small.key });
      expect(refused.headers.get("retry-after")).toBe(String(50 * 60));
      expectRateHeaders(refused, { limit: 2, remaining: 0, reset: unixSeconds(start, HOUR) });
      await expectErrorObject(refused, 429);
      // Other keys and the address limiter are separate windows.
      expect((await s.request("/api/v1/test", { key: key.key })).status).toBe(200);
    });

    test("every endpoint is refused once spent, unknown routes included", async () => {
      const small = await s.seed.key(world.orgId, { rateLimit: 1 });
      expect((await s.request("/api/v1/test", { key: small.key })).status).toBe(200);
      for (const path of [
        "/api/v1/projects",
        "/api/v1/nowhere",
        "/api/v1/openapi.json",
        "/api/v1/api-keys",
      ]) {
        const res = await s.request(path, { key: small.key });
        expect({ path, status: res.status }).toEqual({ path, status: 429 });
        expectRateHeaders(res, { limit: 1, remaining: 0 });
      }
    });

    test("a refused push does not run and is not counted in usageCount", async () => {
      const small = await s.seed.key(world.orgId, { rateLimit: 2 });
      expect((await s.request("/api/v1/test", { key: small.key })).status).toBe(200);
      expect((await s.request("/api/v1/test", { key: small.key })).status).toBe(200);
      const push = { content: '{"greeting":"Bonjour"}', language: "fr", projectId: world.project.id };
      const refused = await s.request("/api/v1/push", { method: "POST", key: small.key, json: push });
      await expectErrorObject(refused, 429);
      expect(refused.headers.get("location")).toBeNull();
      await s.idle();
      expect(await s.parlance.admin.listTranslations(world.project.id, "fr")).toEqual([]);
      expect(await usageOf(small.id)).toBe(2);
    });

    test("the window resets an hour after its first request", async () => {
      const small = await s.seed.key(world.orgId, { rateLimit: 1 });
      expect((await s.request("/api/v1/test", { key: small.key })).status).toBe(200);
      s.clock.advance(HOUR - 1);
      expect((await s.request("/api/v1/test", { key: small.key })).status).toBe(429);
      s.clock.advance(1 + 5 * 60_000);
      const again = await s.request("/api/v1/test", { key: small.key });
      expect(again.status).toBe(200);
      expectRateHeaders(again, { limit: 1, remaining: 0, reset: unixSeconds(s.clock.now(), HOUR) });
      const info = (await again.json()) as { data: { usageCount: number } };
      expect(info.data.usageCount).toBe(2);
    });
  });

  describe("per-address limit for requests without valid credentials", () => {
    test("guessing keys is limited: the 4th unauthenticated request is 429", async () => {
      const bad = [undefined, `pl_${"0".repeat(64)}`, "garbage"];
      for (const [i, k] of bad.entries()) {
        const res = await s.request("/api/v1/test", { key: k });
        expect(res.status).toBe(401);
        expectRateHeaders(res, { limit: ANON_LIMIT, remaining: ANON_LIMIT - 1 - i });
      }
      const refused = await s.request("/api/v1/test", { key: `pl_${"1".repeat(64)}` });
      expect(Number(refused.headers.get("retry-after"))).toBe(3600);
      expectRateHeaders(refused, { limit: ANON_LIMIT, remaining: 0 });
      await expectErrorObject(refused, 429);
      // A valid key has its own window.
      expect((await s.request("/api/v1/test", { key: key.key })).status).toBe(200);
      s.clock.advance(HOUR);
      expect((await s.request("/api/v1/test")).status).toBe(401);
    });

    test("failed token requests count against the address", async () => {
      const init = {
        method: "POST",
        body: "grant_type=client_credentials&client_secret=wrong",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
      for (let i = 0; i < ANON_LIMIT; i++)
        expect((await s.request("/api/v1/auth/token", init)).status).toBe(401);
      const refused = await s.request("/api/v1/auth/token", init);
      expect(refused.status).toBe(429);
      expectRateHeaders(refused, { limit: ANON_LIMIT, remaining: 0 });
      expect(refused.headers.get("retry-after")).not.toBeNull();
    });
  });
});

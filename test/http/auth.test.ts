import { describe, expect, test } from "bun:test";
import { SCOPES, type Scope } from "../../core/index.ts";
import { forEachStore, type TestServer, useWorld, type World } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";

const REALM = 'Bearer realm="parlance"';
const INVALID_TOKEN = 'Bearer realm="parlance", error="invalid_token"';

/** Every scoped endpoint with a request that is valid apart from the scope (API.md Endpoints table). */
function scopedEndpoints(projectId: string): { name: string; scope: Scope; init: [string, RequestInit?] }[] {
  const push = { content: '{"greeting":"Bonjour"}', language: "fr", projectId };
  const jobId = crypto.randomUUID();
  return [
    { name: "GET /projects", scope: "translations:read", init: ["/api/v1/projects"] },
    { name: "GET /pull", scope: "export:read", init: [`/api/v1/pull?project_id=${projectId}&language=fr`] },
    {
      name: "GET /export",
      scope: "export:read",
      init: [`/api/v1/export?project_id=${projectId}&language=fr`],
    },
    { name: "POST /push", scope: "translations:write", init: ["/api/v1/push", post(push)] },
    { name: "POST /import", scope: "translations:write", init: ["/api/v1/import", post(push)] },
    { name: "GET /jobs/{id}", scope: "translations:read", init: [`/api/v1/jobs/${jobId}`] },
    { name: "GET /coverage", scope: "translations:read", init: [`/api/v1/coverage?project_id=${projectId}`] },
    {
      name: "GET /translations",
      scope: "translations:read",
      init: [`/api/v1/translations?project_id=${projectId}&language=fr`],
    },
    { name: "GET /api-keys", scope: "admin", init: ["/api/v1/api-keys"] },
    {
      name: "POST /api-keys",
      scope: "admin",
      init: ["/api/v1/api-keys", post({ name: "n", scopes: ["admin"] })],
    },
  ];
}

function post(json: unknown): RequestInit {
  return { method: "POST", body: JSON.stringify(json), headers: { "content-type": "application/json" } };
}

await forEachStore((kind) => {
  let s: TestServer, world: World["seeded"];
  useWorld(kind, (w) => ({ s, seeded: world } = w));

  const withAuth = (authorization: string) => s.request("/api/v1/test", { headers: { authorization } });

  describe("bearer API key", () => {
    test("the scheme word is case-insensitive", async () => {
      for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
        const res = await withAuth(`${scheme} ${world.key.key}`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { success: boolean }).success).toBe(true);
      }
    });

    test("a missing Authorization header is 401 with the realm challenge and no error code", async () => {
      const res = await s.request("/api/v1/test");
      expect(res.headers.get("www-authenticate")).toBe(REALM);
      await expectErrorObject(res, 401);
    });

    test("a malformed Authorization header is 401", async () => {
      const cases: [string, string][] = [
        ["Basic dXNlcjpwYXNz", REALM],
        ["Token abc", REALM],
        ["Bearer", REALM],
        [`Bearer ${world.key.key} extra`, INVALID_TOKEN],
      ];
      for (const [header, challenge] of cases) {
        const res = await withAuth(header);
        expect({ header, challenge: res.headers.get("www-authenticate") }).toEqual({ header, challenge });
        await expectErrorObject(res, 401);
      }
      await expectErrorObject(await withAuth(world.key.key), 401);
    });

    test("an unknown key or token is 401 invalid_token", async () => {
      for (const token of [
        `pl_${"0".repeat(64)}`,
        `pl_${"A".repeat(64)}`,
        "not-a-key",
        `plat_${"1".repeat(64)}`,
      ]) {
        const res = await withAuth(`Bearer ${token}`);
        expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
        await expectErrorObject(res, 401);
      }
    });

    test("an inactive key is 401 invalid_token", async () => {
      expect((await s.request("/api/v1/test", { key: world.key.key })).status).toBe(200);
      await s.parlance.admin.deactivateKey(world.key.id);
      const res = await s.request("/api/v1/test", { key: world.key.key });
      expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
      await expectErrorObject(res, 401);
    });

    test("an expired key is 401 invalid_token from its expiry on", async () => {
      const expiresAt = new Date(s.clock.now().getTime() + 3600_000).toISOString();
      const key = await s.seed.key(world.orgId, { expiresAt });
      s.clock.advance(3600_000 - 1);
      expect((await s.request("/api/v1/test", { key: key.key })).status).toBe(200);
      s.clock.advance(1);
      const res = await s.request("/api/v1/test", { key: key.key });
      expect(res.headers.get("www-authenticate")).toBe(INVALID_TOKEN);
      await expectErrorObject(res, 401);
    });

    test("every endpoint refuses a request without credentials with 401", async () => {
      for (const e of scopedEndpoints(world.project.id)) {
        const res = await s.request(...e.init);
        expect({ endpoint: e.name, status: res.status }).toEqual({ endpoint: e.name, status: 401 });
        expect(res.headers.get("www-authenticate")).toBe(REALM);
        await expectErrorObject(res, 401);
      }
    });
  });

  describe("scopes", () => {
    test("each endpoint needs exactly its scope: 403 without it, served with it alone", async () => {
      for (const e of scopedEndpoints(world.project.id)) {
        const others = await s.seed.key(world.orgId, { scopes: SCOPES.filter((x) => x !== e.scope) });
        const [path, init] = e.init;
        const refused = await s.request(path, { ...init, key: others.key });
        expect({ endpoint: e.name, status: refused.status }).toEqual({ endpoint: e.name, status: 403 });
        await expectErrorObject(refused, 403, { message: e.scope });

        const only = await s.seed.key(world.orgId, { scopes: [e.scope] });
        const served = await s.request(path, { ...init, key: only.key });
        expect([401, 403]).not.toContain(served.status);
      }
    });

    test("admin implies no other scope", async () => {
      const admin = await s.seed.key(world.orgId, { scopes: ["admin"] });
      for (const e of scopedEndpoints(world.project.id).filter((x) => x.scope !== "admin")) {
        const [path, init] = e.init;
        const res = await s.request(path, { ...init, key: admin.key });
        expect({ endpoint: e.name, status: res.status }).toEqual({ endpoint: e.name, status: 403 });
      }
    });

    test("/test and /project need no scope", async () => {
      for (const scope of SCOPES) {
        const key = await s.seed.key(world.orgId, { scopes: [scope] });
        for (const path of [
          "/api/v1/test",
          "/api/v1/project",
          `/api/v1/project?project_id=${world.project.id}`,
        ]) {
          expect((await s.request(path, { key: key.key })).status).toBe(200);
        }
      }
    });

    test("the scope check comes before input validation", async () => {
      const reader = await s.seed.key(world.orgId, { scopes: ["translations:read"] });
      const res = await s.request("/api/v1/push", {
        method: "POST",
        json: { nonsense: true },
        key: reader.key,
      });
      await expectErrorObject(res, 403);
    });
  });

  describe("organization isolation", () => {
    test("another organization's project is absent (404) everywhere", async () => {
      const other = await s.seed.world();
      const pushed = await s.request("/api/v1/push", {
        method: "POST",
        key: other.key.key,
        json: { content: '{"greeting":"Bonjour"}', language: "fr", projectId: other.project.id },
      });
      expect(pushed.status).toBe(202);
      await s.idle();
      const id = other.project.id;
      const requests: [string, RequestInit?][] = [
        [`/api/v1/project?project_id=${id}`],
        [`/api/v1/pull?project_id=${id}&language=fr`],
        [`/api/v1/export?project_id=${id}&language=fr`],
        [`/api/v1/coverage?project_id=${id}`],
        [`/api/v1/translations?project_id=${id}&language=fr`],
        ["/api/v1/push", post({ content: '{"a":"b"}', language: "fr", projectId: id })],
        ["/api/v1/push", post({ content: '{"a":"b"}', language: "fr", projectId: id, dryRun: true })],
      ];
      for (const [path, init] of requests) {
        const res = await s.request(path, { ...init, key: world.key.key });
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        await expectErrorObject(res, 404);
        // The owner sees it: the 404 is about the organization, not the project.
        const own = await s.request(path, { ...init, key: other.key.key });
        expect({ path, status: own.status }).not.toEqual({ path, status: 404 });
      }
      const listed = (await (await s.request("/api/v1/projects", { key: world.key.key })).json()) as {
        data: { id: string }[];
      };
      expect(listed.data.map((p) => p.id)).toEqual([world.project.id]);
    });

    test("another organization's job is absent (404)", async () => {
      const other = await s.seed.world();
      const pushed = await s.request("/api/v1/push", {
        method: "POST",
        key: other.key.key,
        json: { content: '{"greeting":"Bonjour"}', language: "fr", projectId: other.project.id },
      });
      const { jobId } = (await pushed.json()) as { jobId: string };
      await s.idle();
      expect((await s.request(`/api/v1/jobs/${jobId}`, { key: other.key.key })).status).toBe(200);
      await expectErrorObject(await s.request(`/api/v1/jobs/${jobId}`, { key: world.key.key }), 404);
    });
  });
});

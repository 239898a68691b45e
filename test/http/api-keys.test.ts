import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { type ApiKeyInfo, SCOPES } from "../../core/index.ts";
import { forEachStore, type SeededKey, type TestServer, useWorld } from "../support/harness.ts";
import { expectErrorObject, ISO_DATE } from "../support/http.ts";

const KEYS = "/api/v1/api-keys";
const INFO_FIELDS = [
  "active",
  "createdAt",
  "expiresAt",
  "id",
  "lastUsedAt",
  "name",
  "prefix",
  "rateLimit",
  "scopes",
  "usageCount",
];

type Info = ApiKeyInfo;
interface Listing {
  success: boolean;
  data: Info[];
  pagination: { total: number; limit: number; offset: number };
}

await forEachStore((kind) => {
  let s: TestServer, admin: SeededKey;
  useWorld(kind, (w) => {
    s = w.s;
    admin = w.seeded.key;
  });

  const list = async (query = "", key = admin.key) => {
    const res = await s.request(`${KEYS}${query}`, { key });
    expect(res.status).toBe(200);
    return (await res.json()) as Listing;
  };
  const create = (json: unknown, key = admin.key) => s.request(KEYS, { method: "POST", key, json });

  describe("GET /api-keys", () => {
    test("newest first, default page, exact shape", async () => {
      const names: string[] = [admin.name];
      for (const name of ["first", "second", "third"]) {
        s.clock.advance(1000);
        await s.seed.key(admin.orgId, { name });
        names.unshift(name);
      }
      const body = await list();
      expect(body).toEqual({
        success: true,
        data: expect.any(Array),
        pagination: { total: 4, limit: 20, offset: 0 },
      });
      expect(body.data.map((k) => k.name)).toEqual(names);
      for (const info of body.data) expect(Object.keys(info).sort()).toEqual(INFO_FIELDS);
      const third = body.data[0] as Info;
      expect(third).toEqual({
        id: expect.any(String),
        name: "third",
        prefix: expect.stringMatching(/^pl_[0-9a-f]{6}$/),
        scopes: [...SCOPES],
        rateLimit: 1000,
        usageCount: 0,
        active: true,
        expiresAt: null,
        createdAt: s.clock.now().toISOString(),
        lastUsedAt: null,
      });
      const self = body.data.find((k) => k.id === admin.id) as Info;
      expect(self.usageCount).toBe(1);
      expect(self.lastUsedAt).toMatch(ISO_DATE);
    });

    test("limit and offset page through the list", async () => {
      for (let i = 0; i < 4; i++) {
        s.clock.advance(1000);
        await s.seed.key(admin.orgId, { name: `k${i}` });
      }
      const page = await list("?limit=2&offset=1");
      expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 1 });
      expect(page.data.map((k) => k.name)).toEqual(["k2", "k1"]);
      expect((await list("?limit=1")).data.map((k) => k.name)).toEqual(["k3"]);
      expect((await list("?limit=100&offset=0")).data).toHaveLength(5);
      const past = await list("?offset=50");
      expect(past).toEqual({ success: true, data: [], pagination: { total: 5, limit: 20, offset: 50 } });
    });

    test("out-of-range limit or offset is 400 naming it", async () => {
      for (const [query, field] of [
        ["?limit=0", "limit"],
        ["?limit=101", "limit"],
        ["?limit=-5", "limit"],
        ["?limit=abc", "limit"],
        ["?offset=-1", "offset"],
        ["?offset=x", "offset"],
      ]) {
        await expectErrorObject(await s.request(`${KEYS}${query}`, { key: admin.key }), 400, {
          message: field,
        });
      }
    });

    test("never shows a full key or its hash, and only the caller's organization", async () => {
      const mine = await s.seed.key(admin.orgId);
      const otherOrg = await s.seed.world();
      const text = await (await s.request(`${KEYS}?limit=100`, { key: admin.key })).text();
      for (const k of [admin, mine]) {
        expect(text).not.toContain(k.key);
        expect(text).not.toContain(k.key.slice(9));
        expect(text).not.toContain(createHash("sha256").update(k.key).digest("hex"));
      }
      const body = JSON.parse(text) as Listing;
      expect(body.data.map((k) => k.id).sort()).toEqual([admin.id, mine.id].sort());
      expect(body.pagination.total).toBe(2);
      expect(body.data.map((k) => k.id)).not.toContain(otherOrg.key.id);
    });

    test("needs the admin scope", async () => {
      const others = await s.seed.key(admin.orgId, { scopes: SCOPES.filter((x) => x !== "admin") });
      await expectErrorObject(await s.request(KEYS, { key: others.key }), 403);
    });
  });

  describe("POST /api-keys", () => {
    test("201 with the key info and the full key, which works at once", async () => {
      const res = await create({ name: "deploy", scopes: ["export:read", "translations:read"] });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { success: boolean; data: Info & { key: string } };
      expect(body).toEqual({
        success: true,
        data: {
          id: expect.any(String),
          name: "deploy",
          prefix: expect.any(String),
          scopes: ["export:read", "translations:read"],
          rateLimit: 1000,
          usageCount: 0,
          active: true,
          expiresAt: null,
          createdAt: s.clock.now().toISOString(),
          lastUsedAt: null,
          key: expect.stringMatching(/^pl_[0-9a-f]{64}$/),
        },
      });
      expect(body.data.prefix).toBe(body.data.key.slice(0, 9));
      const who = await s.request("/api/v1/test", { key: body.data.key });
      expect(who.status).toBe(200);
      const info = (await who.json()) as { data: { name: string; organization: { id: string } } };
      expect(info.data).toMatchObject({ name: "deploy", organization: { id: admin.orgId } });
      const listed = await list();
      expect(listed.data.find((k) => k.id === body.data.id)).toMatchObject({ name: "deploy", usageCount: 1 });
      expect(JSON.stringify(listed)).not.toContain(body.data.key);
    });

    test("rateLimit and expiresAt are taken", async () => {
      const expiresAt = new Date(s.clock.now().getTime() + 86_400_000).toISOString();
      const res = await create({ name: "temp", scopes: ["admin"], rateLimit: 10000, expiresAt });
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { key: string; rateLimit: number; expiresAt: string } };
      expect(data).toMatchObject({ rateLimit: 10000, expiresAt });
      expect((await create({ name: "slow", scopes: ["admin"], rateLimit: 1 })).status).toBe(201);
      s.clock.advance(86_400_000);
      await expectErrorObject(await s.request("/api/v1/test", { key: data.key }), 401);
    });

    test("a duplicate name in the organization is 409; another organization may use it", async () => {
      expect((await create({ name: "shared", scopes: ["admin"] })).status).toBe(201);
      await expectErrorObject(await create({ name: "shared", scopes: ["export:read"] }), 409);
      await expectErrorObject(await create({ name: admin.name, scopes: ["admin"] }), 409);
      const other = await s.seed.world();
      expect((await create({ name: "shared", scopes: ["admin"] }, other.key.key)).status).toBe(201);
      expect((await list()).pagination.total).toBe(2);
    });

    test("invalid bodies are 400 naming the field", async () => {
      const past = new Date(s.clock.now().getTime() - 1000).toISOString();
      const cases: [unknown, string][] = [
        [{ name: "a", scopes: ["root"] }, "scopes"],
        [{ name: "a", scopes: ["admin", "write"] }, "scopes"],
        [{ name: "a", scopes: [] }, "scopes"],
        [{ name: "a" }, "scopes"],
        [{ name: "a", scopes: "admin" }, "scopes"],
        [{ scopes: ["admin"] }, "name"],
        [{ name: "", scopes: ["admin"] }, "name"],
        [{ name: "   ", scopes: ["admin"] }, "name is empty; give 1 to 100 characters besides spaces"],
        [{ name: "x".repeat(101), scopes: ["admin"] }, "name is 101 characters long; the limit is 100"],
        [{ name: "a", scopes: ["admin"], rateLimit: 0 }, "rateLimit"],
        [{ name: "a", scopes: ["admin"], rateLimit: 10001 }, "rateLimit"],
        [{ name: "a", scopes: ["admin"], rateLimit: 1.5 }, "rateLimit"],
        [{ name: "a", scopes: ["admin"], rateLimit: "5" }, "rateLimit"],
        [{ name: "a", scopes: ["admin"], rateLimit: "0" }, "rateLimit"],
        [{ name: "a", scopes: ["admin"], expiresAt: past }, "expiresAt"],
        [{ name: "a", scopes: ["admin"], expiresAt: s.clock.now().toISOString() }, "expiresAt"],
        [{ name: "a", scopes: ["admin"], expiresAt: "tomorrow" }, "expiresAt"],
      ];
      for (const [json, field] of cases) {
        const res = await create(json);
        expect({ json, status: res.status }).toEqual({ json, status: 400 });
        await expectErrorObject(res, 400, { message: field });
      }
      expect((await list()).pagination.total).toBe(1);
      expect((await create({ name: "y".repeat(100), scopes: ["admin"] })).status).toBe(201);
    });

    test("needs the admin scope", async () => {
      const others = await s.seed.key(admin.orgId, { scopes: SCOPES.filter((x) => x !== "admin") });
      await expectErrorObject(await create({ name: "nope", scopes: ["admin"] }, others.key), 403);
      expect((await list()).pagination.total).toBe(2);
    });
  });
});

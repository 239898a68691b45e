import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";

/** Code-point order (not UTF-16 code units, not locale collation). */
const byCodePoint = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
};

await forEachStore((kind) => {
  let s: TestServer;
  let world: Awaited<ReturnType<TestServer["seed"]["world"]>>;
  let orgName: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgName = `Acme ${crypto.randomUUID().slice(0, 6)}`;
    const org = await s.seed.org(orgName);
    const project = await s.seed.project(org.id, {
      name: "Website",
      base: "en",
      languages: ["en", "fr", "de"],
    });
    const key = await s.seed.key(org.id, { name: "ci", rateLimit: 250 });
    world = { orgId: org.id, project, key };
  });
  afterEach(() => s.close());

  const expectedInfo = (usageCount: number) => ({
    success: true,
    data: {
      name: "ci",
      organization: { id: world.orgId, name: orgName },
      scopes: [...SCOPES],
      rateLimit: 250,
      usageCount,
    },
  });

  describe("key info", () => {
    test("GET /test is exactly the key info envelope", async () => {
      const res = await s.request("/api/v1/test", { key: world.key.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      expect(await res.json()).toEqual(expectedInfo(1));
    });

    test("GET /project without project_id is the same envelope", async () => {
      const res = await s.request("/api/v1/project", { key: world.key.key });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(expectedInfo(1));
    });

    test("shows the key's own scopes", async () => {
      const key = await s.seed.key(world.orgId, { scopes: ["export:read", "translations:read"] });
      const body = (await (await s.request("/api/v1/test", { key: key.key })).json()) as {
        data: { scopes: string[]; rateLimit: number };
      };
      expect([...body.data.scopes].sort()).toEqual(["export:read", "translations:read"]);
      expect(body.data.rateLimit).toBe(1000);
    });

    test("usageCount counts every served request, the current one included", async () => {
      const key = world.key.key;
      await s.request("/api/v1/test", { key });
      await s.request("/api/v1/projects", { key });
      await s.request("/api/v1/nowhere", { key });
      await s.request("/api/v1/project?project_id=bad", { key });
      await s.request("/api/v1/test", { key, method: "POST" });
      const reader = await s.seed.key(world.orgId, { scopes: ["translations:read"] });
      await s.request("/api/v1/api-keys", { key: reader.key });
      expect(await (await s.request("/api/v1/project", { key })).json()).toEqual(expectedInfo(6));
      expect(await (await s.request("/api/v1/test", { key })).json()).toEqual(expectedInfo(7));
      // Other keys' requests and unauthenticated ones are not this key's.
      await s.request("/api/v1/test");
      await s.request("/api/v1/test", { key: reader.key });
      expect(await (await s.request("/api/v1/test", { key })).json()).toEqual(expectedInfo(8));
    });
  });

  describe("GET /project?project_id", () => {
    test("is exactly {success, data: Project}", async () => {
      const res = await s.request(`/api/v1/project?project_id=${world.project.id}`, { key: world.key.key });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({
        success: true,
        data: { id: world.project.id, name: "Website", baseLanguage: "en", languages: ["en", "fr", "de"] },
      });
    });

    test("an invalid project_id is 400", async () => {
      for (const id of ["abc", "123", `${world.project.id}x`, "", "%20"]) {
        const res = await s.request(`/api/v1/project?project_id=${id}`, { key: world.key.key });
        await expectErrorObject(res, 400, { message: "project_id" });
      }
    });

    test("an unknown or deleted project is 404", async () => {
      await expectErrorObject(
        await s.request(`/api/v1/project?project_id=${crypto.randomUUID()}`, { key: world.key.key }),
        404,
      );
      await s.parlance.admin.deleteProject(world.project.id);
      await expectErrorObject(
        await s.request(`/api/v1/project?project_id=${world.project.id}`, { key: world.key.key }),
        404,
      );
    });
  });

  describe("GET /projects", () => {
    test("lists the organization's live projects in code-point order of name, then id", async () => {
      const names = [
        "beta",
        "Alpha",
        "alpha",
        "Zed",
        "a10",
        "a9",
        "Émile",
        "\u{1F600} smile",
        "\uFF21 wide",
        "same",
        "same",
      ];
      const created = [world.project];
      for (const name of names)
        created.push(await s.seed.project(world.orgId, { name, languages: ["en", "pt-BR"] }));
      const gone = await s.seed.project(world.orgId, { name: "deleted" });
      await s.parlance.admin.deleteProject(gone.id);
      const other = await s.seed.org();
      await s.seed.project(other.id, { name: "AAA other org" });

      const res = await s.request("/api/v1/projects", { key: world.key.key });
      expect(res.status).toBe(200);
      const expected = created
        .map((p) => ({ id: p.id, name: p.name, baseLanguage: p.baseLanguage, languages: p.languages }))
        .sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
      const body = (await res.json()) as { success: boolean; data: { name: string }[] };
      expect(body).toEqual({ success: true, data: expected });
      expect(body.data.map((p) => p.name).slice(0, 4)).toEqual(["Alpha", "Website", "Zed", "a10"]);
      expect(body.data.map((p) => p.name).slice(-3)).toEqual(["Émile", "\uFF21 wide", "\u{1F600} smile"]);
    });

    test("an organization without projects gets an empty list", async () => {
      const org = await s.seed.org();
      const key = await s.seed.key(org.id, { scopes: ["translations:read"] });
      expect(await (await s.request("/api/v1/projects", { key: key.key })).json()).toEqual({
        success: true,
        data: [],
      });
    });
  });
});

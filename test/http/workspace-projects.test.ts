import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import { checkWorkspaceConformance, signedIn } from "../support/signed-in.ts";

checkWorkspaceConformance();

await forEachStore((kind) => {
  let s: TestServer;
  let orgId: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgId = (await s.seed.org("Acme")).id;
  });
  afterEach(() => s.close());

  test("the dashboard lists projects with coverage per language", async () => {
    const project = await s.seed.project(orgId, { name: "Website", base: "en", languages: ["en", "fr"] });
    await s.parlance.as(orgId).push({ projectId: project.id, language: "en", content: '{"a":"A","b":"B"}' });
    await s.parlance
      .as(orgId)
      .push({ projectId: project.id, language: "fr", content: '{"a":"Â"}', status: "pending" });
    await s.idle();
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const res = await ana.fetch(`/api/workspace/orgs/${orgId}/projects`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { id: string; coverage: Record<string, unknown>[] }[] };
    expect(body.data.map((p) => p.id)).toEqual([project.id]);
    expect(body.data[0]?.coverage.find((c) => c.language === "fr")).toMatchObject({
      referenceKeys: 2,
      missing: 1,
      pending: 1,
    });
  });

  test("projects: an admin creates and updates; a developer may not; anyone reads with abilities", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const dev = await signedIn(s, { orgId, role: "developer" });
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const create = (client: typeof admin, json: unknown) =>
      client.fetch(`/api/workspace/orgs/${orgId}/projects`, { method: "POST", json });
    await expectErrorObject(await create(dev, { name: "App", baseLanguage: "en" }), 403);
    await expectErrorObject(await create(admin, { name: "", baseLanguage: "en" }), 400);
    await expectErrorObject(await create(admin, { name: "App", baseLanguage: "not a locale" }), 400);
    const res = await create(admin, { name: "App", baseLanguage: "en", languages: ["fr", "de"] });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { data: { id: string; languages: string[] } };
    expect(created.data.languages).toEqual(["en", "fr", "de"]);
    const id = created.data.id;

    const read = (await (await ana.fetch(`/api/workspace/projects/${id}`)).json()) as {
      data: Record<string, unknown>;
    };
    expect(read.data).toMatchObject({
      id,
      name: "App",
      orgId,
      can: {
        edit: ["fr"],
        review: [],
        import: false,
        manageKeys: false,
        restoreKeys: false,
        manageProject: false,
      },
    });
    const devView = (await (await dev.fetch(`/api/workspace/projects/${id}`)).json()) as {
      data: { can: unknown };
    };
    expect(devView.data.can).toEqual({
      edit: ["en", "fr", "de"],
      review: [],
      import: true,
      manageKeys: true,
      restoreKeys: false,
      manageProject: false,
    });

    await expectErrorObject(
      await dev.fetch(`/api/workspace/projects/${id}`, { method: "PATCH", json: { name: "X" } }),
      403,
    );
    const patched = await admin.fetch(`/api/workspace/projects/${id}`, {
      method: "PATCH",
      json: { name: "Mobile app", addLanguages: ["pt-BR", "fr"] },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { data: unknown }).data).toMatchObject({
      name: "Mobile app",
      languages: ["en", "fr", "de", "pt-BR"],
    });
    await expectErrorObject(
      await admin.fetch(`/api/workspace/projects/${id}`, { method: "PATCH", json: { addLanguages: ["??"] } }),
      400,
    );
    // /api/v1 sees the same project.
    expect((await s.parlance.admin.listProjects(orgId)).map((p) => p.name)).toEqual(["Mobile app"]);
  });

  test("API keys from the workspace: the same keys /api/v1 uses, admins only, org-scoped", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const dev = await signedIn(s, { orgId, role: "developer" });
    const keys = `/api/workspace/orgs/${orgId}/api-keys`;
    await expectErrorObject(await dev.fetch(keys), 403);
    await expectErrorObject(
      await dev.fetch(keys, { method: "POST", json: { name: "ci", scopes: ["translations:read"] } }),
      403,
    );
    await expectErrorObject(
      await admin.fetch(keys, { method: "POST", json: { name: "ci", scopes: ["root"] } }),
      400,
    );
    const res = await admin.fetch(keys, {
      method: "POST",
      json: { name: "ci", scopes: ["translations:read"] },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { data: { id: string; key: string } };
    expect(created.data.key).toMatch(/^pl_[0-9a-f]{64}$/);
    await expectErrorObject(
      await admin.fetch(keys, { method: "POST", json: { name: "ci", scopes: ["admin"] } }),
      409,
    );

    expect((await s.request("/api/v1/projects", { key: created.data.key })).status).toBe(200);
    const list = (await (await admin.fetch(keys)).json()) as {
      data: { id: string }[];
      pagination: { total: number };
    };
    expect(list.data.map((k) => k.id)).toEqual([created.data.id]);
    expect(JSON.stringify(list)).not.toContain(created.data.key);

    const other = (await s.seed.org()).id;
    const foreign = await s.seed.key(other);
    await expectErrorObject(await admin.fetch(`${keys}/${foreign.id}/deactivate`, { method: "POST" }), 404);
    await expectErrorObject(
      await dev.fetch(`${keys}/${created.data.id}/deactivate`, { method: "POST" }),
      403,
    );
    const off = await admin.fetch(`${keys}/${created.data.id}/deactivate`, { method: "POST" });
    expect(off.status).toBe(200);
    expect(((await off.json()) as { data: { active: boolean } }).data.active).toBe(false);
    expect((await s.request("/api/v1/projects", { key: created.data.key })).status).toBe(401);
  });
});

await forEachStore((kind) => {
  test("the role table over HTTP: each role is allowed or refused each people action", async () => {
    const s = await startTestServer(kind);
    try {
      const orgId = (await s.seed.org()).id;
      const project = await s.seed.project(orgId);
      const target = await signedIn(s, { orgId, role: "translator" });
      const ROLES = ["owner", "admin", "developer", "reviewer", "translator"] as const;
      const ADMINS = ["owner", "admin"];
      const ALL = [...ROLES];
      let n = 0;
      const actions: {
        name: string;
        roles: readonly string[];
        run: (c: Awaited<ReturnType<typeof signedIn>>) => Promise<Response>;
      }[] = [
        { name: "list members", roles: ALL, run: (c) => c.fetch(`/api/workspace/orgs/${orgId}/members`) },
        { name: "list projects", roles: ALL, run: (c) => c.fetch(`/api/workspace/orgs/${orgId}/projects`) },
        { name: "read project", roles: ALL, run: (c) => c.fetch(`/api/workspace/projects/${project.id}`) },
        {
          name: "change a member",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/members/${target.user.id}`, {
              method: "PATCH",
              json: { languages: ["fr"] },
            }),
        },
        {
          name: "invite",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
              method: "POST",
              json: { email: `i${n++}@example.com`, role: "translator" },
            }),
        },
        {
          name: "invite an owner",
          roles: ["owner"],
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
              method: "POST",
              json: { email: `o${n++}@example.com`, role: "owner" },
            }),
        },
        {
          name: "list invitations",
          roles: ADMINS,
          run: (c) => c.fetch(`/api/workspace/orgs/${orgId}/invitations`),
        },
        {
          name: "reset link",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/members/${target.user.id}/password-reset`, {
              method: "POST",
            }),
        },
        {
          name: "list API keys",
          roles: ADMINS,
          run: (c) => c.fetch(`/api/workspace/orgs/${orgId}/api-keys`),
        },
        {
          name: "create API key",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/api-keys`, {
              method: "POST",
              json: { name: `k${n++}`, scopes: ["admin"] },
            }),
        },
        {
          name: "create project",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/orgs/${orgId}/projects`, {
              method: "POST",
              json: { name: `P${n++}`, baseLanguage: "en" },
            }),
        },
        {
          name: "update project",
          roles: ADMINS,
          run: (c) =>
            c.fetch(`/api/workspace/projects/${project.id}`, {
              method: "PATCH",
              json: { addLanguages: ["it"] },
            }),
        },
      ];
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const role of ROLES) {
        const client = await signedIn(s, { orgId, role });
        for (const action of actions) {
          const res = await action.run(client);
          outcomes.push(`${role} ${action.name}: ${res.status < 300 ? "allowed" : res.status}`);
          expected.push(`${role} ${action.name}: ${action.roles.includes(role) ? "allowed" : 403}`);
        }
      }
      expect(outcomes).toEqual(expected);
    } finally {
      await s.close();
    }
  });
});

import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import { checkWorkspaceConformance, signedIn } from "../support/signed-in.ts";

checkWorkspaceConformance();

interface MemberBody {
  userId: string;
  email: string;
  role: string;
  languages: string[] | null;
}

await forEachStore((kind) => {
  let s: TestServer;
  let orgId: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgId = (await s.seed.org("Acme")).id;
  });
  afterEach(() => s.close());

  const members = async (client: Awaited<ReturnType<typeof signedIn>>) =>
    ((await (await client.fetch(`/api/workspace/orgs/${orgId}/members`)).json()) as { data: MemberBody[] })
      .data;

  test("every member lists the members; none of them sees a hash", async () => {
    const owner = await signedIn(s, { orgId, role: "owner" });
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const res = await ana.fetch(`/api/workspace/orgs/${orgId}/members`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as { data: MemberBody[] };
    expect(list.data.map((m) => m.userId).sort()).toEqual([owner.user.id, ana.user.id].sort());
    expect(list.data.find((m) => m.userId === ana.user.id)).toMatchObject({
      role: "translator",
      languages: ["fr"],
    });
    expect(JSON.stringify(list)).not.toContain("argon2");
  });

  test("an admin changes roles and languages; only an owner makes or unmakes owners", async () => {
    const owner = await signedIn(s, { orgId, role: "owner" });
    const admin = await signedIn(s, { orgId, role: "admin" });
    const ana = await signedIn(s, { orgId, role: "translator" });
    const patch = (client: typeof admin, userId: string, json: unknown) =>
      client.fetch(`/api/workspace/orgs/${orgId}/members/${userId}`, { method: "PATCH", json });

    const changed = await patch(admin, ana.user.id, { role: "reviewer", languages: ["fr", "de"] });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { data: MemberBody }).data).toMatchObject({
      role: "reviewer",
      languages: ["fr", "de"],
    });
    // A role that cannot be limited drops the languages.
    expect(
      ((await (await patch(admin, ana.user.id, { role: "developer" })).json()) as { data: MemberBody }).data,
    ).toMatchObject({
      role: "developer",
      languages: null,
    });
    await expectErrorObject(await patch(admin, ana.user.id, { role: "owner" }), 403);
    await expectErrorObject(await patch(admin, owner.user.id, { role: "admin" }), 403);
    await expectErrorObject(await patch(ana, admin.user.id, { role: "translator" }), 403);
    await expectErrorObject(await patch(admin, ana.user.id, { role: "chief" }), 400);
    await expectErrorObject(await patch(admin, ana.user.id, { role: "translator", languages: [] }), 400);
    await expectErrorObject(await patch(admin, crypto.randomUUID(), { role: "translator" }), 404);
    expect((await patch(owner, ana.user.id, { role: "owner" })).status).toBe(200);
    expect((await members(owner)).filter((m) => m.role === "owner").length).toBe(2);
  });

  test("the last owner can be neither demoted nor removed (409)", async () => {
    const owner = await signedIn(s, { orgId, role: "owner" });
    await expectErrorObject(
      await owner.fetch(`/api/workspace/orgs/${orgId}/members/${owner.user.id}`, {
        method: "PATCH",
        json: { role: "admin" },
      }),
      409,
    );
    await expectErrorObject(
      await owner.fetch(`/api/workspace/orgs/${orgId}/members/${owner.user.id}`, { method: "DELETE" }),
      409,
    );
    const second = await signedIn(s, { orgId, role: "owner" });
    expect(
      (await second.fetch(`/api/workspace/orgs/${orgId}/members/${owner.user.id}`, { method: "DELETE" }))
        .status,
    ).toBe(204);
    await expectErrorObject(await owner.fetch(`/api/workspace/orgs/${orgId}/members`), 404);
  });

  test("removing: admins remove non-owners, anyone may leave, translators remove no one", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const owner = await signedIn(s, { orgId, role: "owner" });
    const ana = await signedIn(s, { orgId, role: "translator" });
    const bob = await signedIn(s, { orgId, role: "developer" });
    const remove = (client: typeof admin, userId: string) =>
      client.fetch(`/api/workspace/orgs/${orgId}/members/${userId}`, { method: "DELETE" });
    await expectErrorObject(await remove(ana, bob.user.id), 403);
    await expectErrorObject(await remove(admin, owner.user.id), 403);
    expect((await remove(admin, bob.user.id)).status).toBe(204);
    expect((await remove(ana, ana.user.id)).status).toBe(204);
    expect((await members(owner)).map((m) => m.userId).sort()).toEqual([admin.user.id, owner.user.id].sort());
  });

  test("a member of one organization gets 404 for another's members, invitations, keys and projects", async () => {
    const other = (await s.seed.org("Other")).id;
    const project = await s.seed.project(other);
    const owner = await signedIn(s, { orgId, role: "owner" });
    const theirs = await signedIn(s, { orgId: other, role: "translator" });
    for (const path of [
      `/api/workspace/orgs/${other}/members`,
      `/api/workspace/orgs/${other}/invitations`,
      `/api/workspace/orgs/${other}/api-keys`,
      `/api/workspace/orgs/${other}/projects`,
      `/api/workspace/projects/${project.id}`,
      `/api/workspace/orgs/${crypto.randomUUID()}/members`,
      "/api/workspace/orgs/not-a-uuid/members",
      `/api/workspace/projects/${crypto.randomUUID()}`,
    ]) {
      await expectErrorObject(await owner.fetch(path), 404);
    }
    await expectErrorObject(
      await owner.fetch(`/api/workspace/orgs/${other}/members/${theirs.user.id}`, {
        method: "PATCH",
        json: { role: "admin" },
      }),
      404,
    );
    await expectErrorObject(
      await owner.fetch(`/api/workspace/orgs/${other}/invitations`, {
        method: "POST",
        json: { email: "x@example.com", role: "owner" },
      }),
      404,
    );
    await expectErrorObject(
      await owner.fetch(`/api/workspace/projects/${project.id}`, { method: "PATCH", json: { name: "Mine" } }),
      404,
    );
  });
});

test("two owners demoting each other at once over HTTP leave exactly one owner", async () => {
  const s = await startTestServer("sqlite");
  try {
    const orgId = (await s.seed.org()).id;
    const a = await signedIn(s, { orgId, role: "owner" });
    const b = await signedIn(s, { orgId, role: "owner" });
    const results = await Promise.all([
      a.fetch(`/api/workspace/orgs/${orgId}/members/${b.user.id}`, {
        method: "PATCH",
        json: { role: "admin" },
      }),
      b.fetch(`/api/workspace/orgs/${orgId}/members/${a.user.id}`, {
        method: "PATCH",
        json: { role: "admin" },
      }),
    ]);
    // The loser was demoted first (403) or would leave no owner (409), depending on timing.
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1] as number);
    const owners = (await s.parlance.storage.memberships.listByOrg(orgId)).filter((m) => m.role === "owner");
    expect(owners.length).toBe(1);
  } finally {
    await s.close();
  }
});

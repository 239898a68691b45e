import { expect } from "./expect.ts";
import { at, org } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";
import { membership, seedOrgAndUser, user } from "./people-fixtures.ts";

export function membershipContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › MembershipStore`);

  test("get is null when the user is not a member", async (storage) => {
    const { orgId, user: u } = await seedOrgAndUser(storage);
    expect(await storage.memberships.get(orgId, u.id)).toBeNull();
    expect(await storage.memberships.listByUser(u.id)).toEqual([]);
    expect(await storage.memberships.listByOrg(orgId)).toEqual([]);
  });

  test("create then get, listByUser and listByOrg round-trip every field", async (storage) => {
    const { orgId, user: u } = await seedOrgAndUser(storage, { email: "Zoe@example.com", name: "Zoé" });
    const m = membership(orgId, u.id, { role: "reviewer", languages: ["fr", "de"] });
    await storage.memberships.create(m);
    expect(await storage.memberships.get(orgId, u.id)).toEqual(m);
    expect(await storage.memberships.listByUser(u.id)).toEqual([m]);
    expect(await storage.memberships.listByOrg(orgId)).toEqual([
      { ...m, email: "Zoe@example.com", name: "Zoé" },
    ]);
  });

  test("a second membership in one organization is a conflict", async (storage) => {
    const { orgId, user: u } = await seedOrgAndUser(storage);
    await storage.memberships.create(membership(orgId, u.id));
    await expect(storage.memberships.create(membership(orgId, u.id, { role: "owner" }))).rejects.toThrow(
      "already",
    );
    expect((await storage.memberships.get(orgId, u.id))?.role).toBe("translator");
  });

  test("listByOrg orders by email ignoring case; listByUser spans organizations", async (storage) => {
    const { orgId, user: b } = await seedOrgAndUser(storage, { email: "b@example.com" });
    const a = user({ email: "A@example.com" });
    const c = user({ email: "c@example.com" });
    await storage.users.create(a);
    await storage.users.create(c);
    for (const u of [c, b, a]) await storage.memberships.create(membership(orgId, u.id));
    expect((await storage.memberships.listByOrg(orgId)).map((m) => m.email)).toEqual([
      "A@example.com",
      "b@example.com",
      "c@example.com",
    ]);
    const other = org();
    await storage.orgs.create(other);
    await storage.memberships.create(membership(other.id, a.id, { role: "admin" }));
    expect((await storage.memberships.listByUser(a.id)).length).toBe(2);
    expect((await storage.memberships.listByOrg(other.id)).map((m) => m.userId)).toEqual([a.id]);
  });

  test("update changes role and languages; absent fields stay", async (storage) => {
    const { orgId, user: u } = await seedOrgAndUser(storage);
    const m = membership(orgId, u.id, { role: "translator", languages: ["fr"] });
    await storage.memberships.create(m);
    expect(await storage.memberships.update(orgId, u.id, { languages: ["fr", "de"] })).toEqual({
      ok: true,
      membership: { ...m, languages: ["fr", "de"] },
    });
    expect(await storage.memberships.update(orgId, u.id, { role: "reviewer" })).toEqual({
      ok: true,
      membership: { ...m, role: "reviewer", languages: ["fr", "de"] },
    });
    expect(await storage.memberships.update(orgId, u.id, { languages: null })).toEqual({
      ok: true,
      membership: { ...m, role: "reviewer", languages: null },
    });
    expect(await storage.memberships.get(orgId, u.id)).toEqual({ ...m, role: "reviewer", languages: null });
    expect(await storage.memberships.update(orgId, crypto.randomUUID(), { role: "admin" })).toEqual({
      ok: false,
      reason: "not_found",
    });
  });

  test("the last owner cannot be demoted or removed; another owner can", async (storage) => {
    const { orgId, user: a } = await seedOrgAndUser(storage);
    const b = user();
    await storage.users.create(b);
    await storage.memberships.create(membership(orgId, a.id, { role: "owner" }));
    expect(await storage.memberships.update(orgId, a.id, { role: "admin" })).toEqual({
      ok: false,
      reason: "last_owner",
    });
    expect(await storage.memberships.remove(orgId, a.id)).toEqual({ ok: false, reason: "last_owner" });
    await storage.memberships.create(membership(orgId, b.id, { role: "owner" }));
    const demoted = await storage.memberships.update(orgId, a.id, { role: "admin" });
    expect(demoted.ok).toBe(true);
    expect(await storage.memberships.remove(orgId, b.id)).toEqual({ ok: false, reason: "last_owner" });
    expect((await storage.memberships.remove(orgId, a.id)).ok).toBe(true);
    expect(await storage.memberships.get(orgId, a.id)).toBeNull();
    expect(await storage.memberships.remove(orgId, a.id)).toEqual({ ok: false, reason: "not_found" });
  });

  test("two owners demoting each other at once leave exactly one owner", async (storage) => {
    const { orgId, user: a } = await seedOrgAndUser(storage);
    const b = user();
    await storage.users.create(b);
    await storage.memberships.create(membership(orgId, a.id, { role: "owner" }));
    await storage.memberships.create(membership(orgId, b.id, { role: "owner" }));
    const results = await Promise.all([
      storage.memberships.update(orgId, a.id, { role: "admin" }),
      storage.memberships.remove(orgId, b.id),
    ]);
    expect(results.filter((r) => r.ok).length).toBe(1);
    const owners = (await storage.memberships.listByOrg(orgId)).filter((m) => m.role === "owner");
    expect(owners.length).toBe(1);
  });

  test("memberships of one organization do not touch another's", async (storage) => {
    const { orgId, user: u } = await seedOrgAndUser(storage);
    const other = org({ createdAt: at(1) });
    await storage.orgs.create(other);
    await storage.memberships.create(membership(orgId, u.id, { role: "owner" }));
    await storage.memberships.create(membership(other.id, u.id, { role: "owner" }));
    expect(await storage.memberships.update(other.id, u.id, { role: "admin" })).toEqual({
      ok: false,
      reason: "last_owner",
    });
    expect((await storage.memberships.get(orgId, u.id))?.role).toBe("owner");
  });
}

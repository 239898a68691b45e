import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import {
  checkWorkspaceConformance,
  cookieFrom,
  createUser,
  signedIn,
  workspaceFetch,
} from "../support/signed-in.ts";

checkWorkspaceConformance();

const DAY = 86_400_000;
const tokenOf = (link: string) => link.slice(link.indexOf("#") + 1);

await forEachStore((kind) => {
  let s: TestServer;
  let orgId: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgId = (await s.seed.org("Acme")).id;
  });
  afterEach(() => s.close());

  const post = (path: string, json: unknown, cookie: string | null = null) =>
    workspaceFetch(s, path, { method: "POST", json, cookie });

  test("an admin invites; the link is looked up, accepted once, and signs the new member in", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const res = await admin.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
      method: "POST",
      json: { email: "Zoe@Example.com", role: "translator", languages: ["fr"] },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as {
      data: { id: string; link: string; token: string; expiresAt: string };
    };
    expect(created.data.link).toBe(`http://localhost/invite#${created.data.token}`);
    expect(created.data.expiresAt).toBe(new Date(s.clock.now().getTime() + 7 * DAY).toISOString());
    const token = tokenOf(created.data.link);

    const listed = (await (await admin.fetch(`/api/workspace/orgs/${orgId}/invitations`)).json()) as {
      data: { id: string; email: string }[];
    };
    expect(listed.data.map((i) => i.email)).toEqual(["Zoe@Example.com"]);
    expect(JSON.stringify(listed)).not.toContain(token);

    const lookup = await post("/api/workspace/invitations/lookup", { token });
    expect(await lookup.json()).toEqual({
      data: expect.objectContaining({
        email: "Zoe@Example.com",
        role: "translator",
        languages: ["fr"],
        orgId,
        orgName: "Acme",
      }),
    });
    await expectErrorObject(
      await post("/api/workspace/invitations/accept", { token, name: "Zoé", password: "short" }),
      400,
    );
    const accepted = await post("/api/workspace/invitations/accept", {
      token,
      name: "Zoé",
      password: "a good long passphrase",
    });
    expect(accepted.status).toBe(201);
    const me = (await (
      await workspaceFetch(s, "/api/workspace/me", { cookie: cookieFrom(accepted) })
    ).json()) as {
      data: { user: { email: string }; memberships: unknown[] };
    };
    expect(me.data.user.email).toBe("Zoe@Example.com");
    expect(me.data.memberships).toEqual([{ orgId, orgName: "Acme", role: "translator", languages: ["fr"] }]);

    await expectErrorObject(await post("/api/workspace/invitations/lookup", { token }), 404);
    await expectErrorObject(
      await post("/api/workspace/invitations/accept", {
        token,
        name: "Again",
        password: "a good long passphrase",
      }),
      404,
    );
    expect(
      ((await (await admin.fetch(`/api/workspace/orgs/${orgId}/invitations`)).json()) as { data: [] }).data,
    ).toEqual([]);
  });

  test("a signed-in person with the invited email joins with their account", async () => {
    const other = (await s.seed.org("Other")).id;
    const owner = await signedIn(s, { orgId, role: "owner" });
    const bob = await signedIn(s, { orgId: other, role: "developer" });
    const res = await owner.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
      method: "POST",
      json: { email: bob.user.email.toUpperCase(), role: "reviewer" },
    });
    const { token } = ((await res.json()) as { data: { token: string } }).data;
    // Not signed in, the email already has an account: sign in first.
    await expectErrorObject(
      await post("/api/workspace/invitations/accept", {
        token,
        name: "B",
        password: "a good long passphrase",
      }),
      409,
    );
    const joined = await bob.fetch("/api/workspace/invitations/accept", { method: "POST", json: { token } });
    expect(joined.status).toBe(200);
    const me = (await joined.json()) as { data: { memberships: { orgId: string; role: string }[] } };
    expect(me.data.memberships.map((m) => m.role).sort()).toEqual(["developer", "reviewer"]);
  });

  test("invitations: revoke, expiry, members already in, owners only by owners, bad input", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const invite = (json: unknown) =>
      admin.fetch(`/api/workspace/orgs/${orgId}/invitations`, { method: "POST", json });
    await expectErrorObject(await invite({ email: "new@example.com", role: "owner" }), 403);
    await expectErrorObject(await invite({ email: "not an email", role: "translator" }), 400);
    await expectErrorObject(await invite({ email: "x@example.com", role: "boss" }), 400);
    await expectErrorObject(
      await invite({ email: "x@example.com", role: "translator", languages: ["not a locale!"] }),
      400,
    );
    await expectErrorObject(await invite({ email: admin.user.email, role: "translator" }), 409);

    const a = (
      (await (await invite({ email: "a@example.com", role: "translator" })).json()) as {
        data: { id: string; token: string };
      }
    ).data;
    expect(
      (await admin.fetch(`/api/workspace/orgs/${orgId}/invitations/${a.id}`, { method: "DELETE" })).status,
    ).toBe(204);
    await expectErrorObject(
      await admin.fetch(`/api/workspace/orgs/${orgId}/invitations/${a.id}`, { method: "DELETE" }),
      404,
    );
    await expectErrorObject(await post("/api/workspace/invitations/lookup", { token: a.token }), 404);

    const b = (
      (await (await invite({ email: "b@example.com", role: "translator" })).json()) as {
        data: { token: string };
      }
    ).data;
    s.clock.advance(7 * DAY + 1000);
    await expectErrorObject(await post("/api/workspace/invitations/lookup", { token: b.token }), 404);
    await expectErrorObject(await post("/api/workspace/invitations/lookup", { token: "not-a-token" }), 404);
  });

  test("reset link: made by an admin for a member, completes once, ends every session", async () => {
    const admin = await signedIn(s, { orgId, role: "admin" });
    const ana = await signedIn(s, { orgId, role: "translator" });
    const owner = await signedIn(s, { orgId, role: "owner" });
    await expectErrorObject(
      await admin.fetch(`/api/workspace/orgs/${orgId}/members/${owner.user.id}/password-reset`, {
        method: "POST",
      }),
      403,
    );
    await expectErrorObject(
      await ana.fetch(`/api/workspace/orgs/${orgId}/members/${admin.user.id}/password-reset`, {
        method: "POST",
      }),
      403,
    );
    const outsider = await createUser(s);
    await expectErrorObject(
      await admin.fetch(`/api/workspace/orgs/${orgId}/members/${outsider.id}/password-reset`, {
        method: "POST",
      }),
      404,
    );
    const res = await admin.fetch(`/api/workspace/orgs/${orgId}/members/${ana.user.id}/password-reset`, {
      method: "POST",
    });
    expect(res.status).toBe(201);
    const { link, token } = ((await res.json()) as { data: { link: string; token: string } }).data;
    expect(link).toBe(`http://localhost/reset#${token}`);
    await expectErrorObject(
      await post("/api/workspace/password-resets/complete", { token, password: "password123" }),
      400,
    );
    expect(
      (await post("/api/workspace/password-resets/complete", { token, password: "my new long passphrase" }))
        .status,
    ).toBe(204);
    await expectErrorObject(await ana.fetch("/api/workspace/me"), 401);
    await expectErrorObject(
      await post("/api/workspace/password-resets/complete", { token, password: "another long passphrase" }),
      404,
    );
    const signIn = await post("/api/workspace/session", {
      email: ana.user.email,
      password: "my new long passphrase",
    });
    expect(signIn.status).toBe(200);
  });
});

test("invitation links use PARLANCE_PUBLIC_URL when set", async () => {
  const s = await startTestServer("memory", { publicUrl: "https://tms.example.com" });
  try {
    const orgId = (await s.seed.org()).id;
    const admin = await signedIn(s, { orgId, role: "admin" }).catch(() => null);
    // Sign-in itself is refused from another origin: sign in from the public one.
    expect(admin).toBeNull();
    const user = await createUser(s);
    await s.parlance.storage.memberships.create({
      orgId,
      userId: user.id,
      role: "admin",
      languages: null,
      createdAt: s.parlance.now().toISOString(),
    });
    const origin = "https://tms.example.com";
    const res = await workspaceFetch(s, "/api/workspace/session", {
      method: "POST",
      origin,
      json: { email: user.email, password: user.password },
    });
    const cookie = cookieFrom(res);
    const invited = await workspaceFetch(s, `/api/workspace/orgs/${orgId}/invitations`, {
      method: "POST",
      origin,
      cookie,
      json: { email: "z@example.com", role: "translator" },
    });
    const { link } = ((await invited.json()) as { data: { link: string } }).data;
    expect(link).toStartWith("https://tms.example.com/invite#");
  } finally {
    await s.close();
  }
});

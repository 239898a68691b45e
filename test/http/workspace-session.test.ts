import { afterEach, beforeEach, expect, test } from "bun:test";
import { SESSION_ABSOLUTE_MS, SIGN_IN_LIMITS } from "../../core/index.ts";
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

await forEachStore((kind) => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer(kind);
  });
  afterEach(() => s.close());

  const signIn = (email: string, password: string, init: { origin?: string | null } = {}) =>
    workspaceFetch(s, "/api/workspace/session", { method: "POST", json: { email, password }, ...init });

  test("signing in sets an HttpOnly, SameSite=Lax session cookie and answers who signed in", async () => {
    const org = await s.seed.org("Acme");
    const ana = await signedIn(s, { orgId: org.id, role: "reviewer", languages: ["fr"], name: "Ana" });
    const res = await signIn(ana.user.email.toUpperCase(), ana.password);
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^parlance_session=[0-9a-f]{64}; Max-Age=\d+; HttpOnly; SameSite=Lax; Path=\/$/);
    expect(cookie).not.toContain("Secure");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { data: { user: Record<string, unknown>; memberships: unknown[] } };
    expect(body.data.user).toEqual({
      id: ana.user.id,
      email: ana.user.email,
      name: "Ana",
      createdAt: expect.any(String),
    });
    expect(body.data.memberships).toEqual([
      { orgId: org.id, orgName: "Acme", role: "reviewer", languages: ["fr"] },
    ]);
    expect(JSON.stringify(body)).not.toContain("argon2");
  });

  test("an unknown email and a wrong password get the same 401", async () => {
    const user = await createUser(s);
    const wrong = await signIn(user.email, "not the password at all");
    const unknown = await signIn("nobody@example.com", "not the password at all");
    const a = await expectErrorObject(wrong, 401);
    const b = await expectErrorObject(unknown, 401);
    expect(a.error).toBe(b.error);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  test("GET /me needs a live session: none, garbage or signed out is 401", async () => {
    const ana = await signedIn(s);
    expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
    await expectErrorObject(await workspaceFetch(s, "/api/workspace/me"), 401);
    await expectErrorObject(
      await workspaceFetch(s, "/api/workspace/me", { cookie: "parlance_session=abc" }),
      401,
    );
    await expectErrorObject(
      await workspaceFetch(s, "/api/workspace/me", { cookie: `parlance_session=${"0".repeat(64)}` }),
      401,
    );
    const out = await ana.fetch("/api/workspace/session", { method: "DELETE" });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(
      /^parlance_session=; Max-Age=0; HttpOnly; SameSite=Lax; Path=\/$/,
    );
    await expectErrorObject(await ana.fetch("/api/workspace/me"), 401);
  });

  test("a state-changing request from another origin, or without Origin or Sec-Fetch-Site, is 403", async () => {
    const ana = await signedIn(s);
    const patch = (init: Parameters<typeof ana.fetch>[1]) =>
      ana.fetch("/api/workspace/me", { method: "PATCH", json: { name: "Changed" }, ...init });
    // The answer names both origins and what to set behind a proxy.
    await expectErrorObject(await patch({ origin: "http://evil.example" }), 403, {
      message:
        "Cross-origin request refused: Origin http://evil.example is not this server's origin, http://localhost. Behind a reverse proxy, set PARLANCE_PUBLIC_URL",
    });
    await expectErrorObject(await patch({ origin: null }), 403);
    await expectErrorObject(await patch({ origin: null, headers: { "sec-fetch-site": "cross-site" } }), 403);
    await expectErrorObject(
      await signIn("a@example.com", "whatever123", { origin: "http://evil.example" }),
      403,
    );
    expect(
      ((await (await ana.fetch("/api/workspace/me")).json()) as { data: { user: { name: string } } }).data
        .user.name,
    ).not.toBe("Changed");
    // Reads are not refused, and a same-origin fetch without Origin passes.
    expect((await ana.fetch("/api/workspace/me", { origin: "http://evil.example" })).status).toBe(200);
    const sameOrigin = await patch({ origin: null, headers: { "sec-fetch-site": "same-origin" } });
    expect({ status: sameOrigin.status, body: await sameOrigin.text() }).toMatchObject({ status: 200 });
  });

  test("sign-in is throttled per account: 429 with Retry-After, counted again after the window", async () => {
    const user = await createUser(s);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await signIn(user.email, "wrong password here")).status).toBe(401);
    }
    const refused = await signIn(user.email, user.password);
    await expectErrorObject(refused, 429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowMs / 1000);
    // Another account from the same address is not locked out by this one.
    const other = await createUser(s);
    expect((await signIn(other.email, other.password)).status).toBe(200);
    s.clock.advance(SIGN_IN_LIMITS.windowMs + 1000);
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });

  test("sign-in is throttled per client address across accounts", async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) {
      expect((await signIn(`nobody${i}@example.com`, "wrong password here")).status).toBe(401);
    }
    await expectErrorObject(await signIn("nobody@example.com", "wrong password here"), 429);
  });

  test("a session slides: used within 14 days it lives on, idle for 14 days it ends", async () => {
    const ana = await signedIn(s);
    s.clock.advance(13 * DAY);
    expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
    s.clock.advance(13 * DAY);
    expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
    s.clock.advance(14 * DAY + 1000);
    await expectErrorObject(await ana.fetch("/api/workspace/me"), 401);
  });

  test("a session ends 30 days after sign-in however often it is used", async () => {
    const ana = await signedIn(s);
    for (let day = 5; day < 30; day += 5) {
      s.clock.advance(5 * DAY);
      expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
    }
    s.clock.advance(SESSION_ABSOLUTE_MS - 25 * DAY);
    await expectErrorObject(await ana.fetch("/api/workspace/me"), 401);
  });

  test("own sessions are listed and revoked; another person's session is 404", async () => {
    const ana = await signedIn(s);
    const second = cookieFrom(await signIn(ana.user.email, ana.password));
    const list = (await (await ana.fetch("/api/workspace/me/sessions")).json()) as {
      data: { id: string; current: boolean }[];
    };
    expect(list.data.length).toBe(2);
    expect(list.data.filter((x) => x.current).length).toBe(1);
    const other = list.data.find((x) => !x.current);
    const bob = await signedIn(s);
    await expectErrorObject(
      await bob.fetch(`/api/workspace/me/sessions/${other?.id}`, { method: "DELETE" }),
      404,
    );
    expect((await ana.fetch(`/api/workspace/me/sessions/${other?.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    await expectErrorObject(await workspaceFetch(s, "/api/workspace/me", { cookie: second }), 401);
    expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
  });

  test("changing the password ends every other session and needs the current password", async () => {
    const ana = await signedIn(s);
    const elsewhere = cookieFrom(await signIn(ana.user.email, ana.password));
    const change = (currentPassword: string, newPassword: string) =>
      ana.fetch("/api/workspace/me/password", { method: "POST", json: { currentPassword, newPassword } });
    await expectErrorObject(await change("not my password", "a brand new passphrase"), 400);
    await expectErrorObject(await change(ana.password, "short"), 400, { message: "at least 10" });
    await expectErrorObject(await change(ana.password, "Password123"), 400, { message: "common" });
    expect((await workspaceFetch(s, "/api/workspace/me", { cookie: elsewhere })).status).toBe(200);
    expect((await change(ana.password, "a brand new passphrase")).status).toBe(204);
    await expectErrorObject(await workspaceFetch(s, "/api/workspace/me", { cookie: elsewhere }), 401);
    expect((await ana.fetch("/api/workspace/me")).status).toBe(200);
    expect((await signIn(ana.user.email, ana.password)).status).toBe(401);
    expect((await signIn(ana.user.email, "a brand new passphrase")).status).toBe(200);
  });

  test("PATCH /me changes name and email; a taken email is 409, a bad one 400", async () => {
    const ana = await signedIn(s);
    const bob = await signedIn(s);
    const res = await ana.fetch("/api/workspace/me", {
      method: "PATCH",
      json: { name: " Ana Lima ", email: "ana@example.com", currentPassword: ana.password },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { user: { name: string; email: string } } };
    expect(body.data.user).toMatchObject({ name: "Ana Lima", email: "ana@example.com" });
    await expectErrorObject(
      await bob.fetch("/api/workspace/me", {
        method: "PATCH",
        json: { email: "ANA@example.com", currentPassword: bob.password },
      }),
      409,
    );
    await expectErrorObject(
      await bob.fetch("/api/workspace/me", { method: "PATCH", json: { email: "not-an-email" } }),
      400,
    );
    await expectErrorObject(
      await bob.fetch("/api/workspace/me", { method: "PATCH", json: { name: "" } }),
      400,
    );
    await expectErrorObject(
      await bob.fetch("/api/workspace/me", {
        method: "PATCH",
        body: "{",
        headers: { "content-type": "application/json" },
      }),
      400,
    );
  });

  test("PATCH /me: a new email needs the current password; wrong guesses are limited", async () => {
    const ana = await signedIn(s);
    const read = async () =>
      (
        (await (await ana.fetch("/api/workspace/me")).json()) as {
          data: { user: { email: string; name: string } };
        }
      ).data.user;
    const patch = (json: Record<string, unknown>) =>
      ana.fetch("/api/workspace/me", { method: "PATCH", json });
    await expectErrorObject(await patch({ email: "taken.over@example.com" }), 400, {
      message: "currentPassword",
    });
    await expectErrorObject(
      await patch({ email: "taken.over@example.com", name: "Mallory", currentPassword: "not her password" }),
      400,
      { message: "currentPassword" },
    );
    // Nothing changed, the name included; the old email still signs in, the new one does not.
    expect(await read()).toMatchObject({ email: ana.user.email, name: ana.user.name });
    expect((await signIn("taken.over@example.com", ana.password)).status).toBe(401);
    // The name alone, and the same email in another case, need no password.
    expect((await patch({ name: "Ana B" })).status).toBe(200);
    expect((await patch({ email: ana.user.email.toUpperCase() })).status).toBe(200);
    const changed = await patch({ email: "ana.new@example.com", currentPassword: ana.password });
    expect(changed.status).toBe(200);
    expect((await signIn("ana.new@example.com", ana.password)).status).toBe(200);
    expect((await signIn(ana.user.email, ana.password)).status).toBe(401);
    // A session cannot test passwords without end: every check counts (two so far), and past the
    // per-person limit the answer is 429, even for the right password.
    for (let i = 2; i < SIGN_IN_LIMITS.perAccount; i++)
      await expectErrorObject(
        await patch({ email: "x@example.com", currentPassword: `guess number ${i}` }),
        400,
      );
    const throttled = await patch({ email: "x@example.com", currentPassword: ana.password });
    await expectErrorObject(throttled, 429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectErrorObject(
      await ana.fetch("/api/workspace/me/password", {
        method: "POST",
        json: { currentPassword: ana.password, newPassword: "a brand new passphrase" },
      }),
      429,
    );
    s.clock.advance(SIGN_IN_LIMITS.windowMs + 1000);
    expect((await patch({ email: "x@example.com", currentPassword: ana.password })).status).toBe(200);
  });

  test("setup: the link creates the first owner of every organization, once", async () => {
    // An empty store: the name given at setup would create the organization.
    expect(await (await workspaceFetch(s, "/api/workspace/setup")).json()).toEqual({
      data: { needed: true, organizationNeeded: true },
    });
    const a = await s.seed.org("Alpha");
    const b = await s.seed.org("Beta");
    expect(await (await workspaceFetch(s, "/api/workspace/setup")).json()).toEqual({
      data: { needed: true, organizationNeeded: false },
    });
    const token = await s.parlance.people.createSetupToken();
    const body = { token, email: "owner@example.com", name: "Olga", password: "a long enough passphrase" };
    await expectErrorObject(
      await workspaceFetch(s, "/api/workspace/setup", {
        method: "POST",
        json: { ...body, token: "f".repeat(64) },
      }),
      404,
    );
    await expectErrorObject(
      await workspaceFetch(s, "/api/workspace/setup", {
        method: "POST",
        json: { ...body, password: "1234567890" },
      }),
      400,
    );
    const res = await workspaceFetch(s, "/api/workspace/setup", { method: "POST", json: body });
    expect(res.status).toBe(201);
    const me = (await (await workspaceFetch(s, "/api/workspace/me", { cookie: cookieFrom(res) })).json()) as {
      data: { memberships: { orgId: string; role: string }[] };
    };
    expect(me.data.memberships.map((m) => [m.orgId, m.role])).toEqual([
      [a.id, "owner"],
      [b.id, "owner"],
    ]);
    expect(await s.parlance.people.createSetupToken()).toBeNull();
    expect(await (await workspaceFetch(s, "/api/workspace/setup")).json()).toEqual({
      data: { needed: false, organizationNeeded: false },
    });
    const again = await workspaceFetch(s, "/api/workspace/setup", {
      method: "POST",
      json: { ...body, email: "second@example.com" },
    });
    await expectErrorObject(again, 409);
  });

  test("setup on an empty store creates the organization the form names; an expired link is 404", async () => {
    const stale = await s.parlance.people.createSetupToken();
    s.clock.advance(DAY + 1000);
    const body = { email: "owner@example.com", name: "Olga", password: "a long enough passphrase" };
    await expectErrorObject(
      await workspaceFetch(s, "/api/workspace/setup", { method: "POST", json: { ...body, token: stale } }),
      404,
    );
    const token = await s.parlance.people.createSetupToken();
    const res = await workspaceFetch(s, "/api/workspace/setup", {
      method: "POST",
      json: { ...body, token, organizationName: "Lingua" },
    });
    expect(res.status).toBe(201);
    const me = (await res.json()) as { data: { memberships: { orgName: string; role: string }[] } };
    expect(me.data.memberships).toMatchObject([{ orgName: "Lingua", role: "owner" }]);
  });
});

test("with an https public URL the cookie is Secure and the CSRF origin is the public one", async () => {
  const s = await startTestServer("memory", { publicUrl: "https://tms.example.com" });
  try {
    const user = await createUser(s);
    const local = await workspaceFetch(s, "/api/workspace/session", {
      method: "POST",
      json: { email: user.email, password: user.password },
    });
    // The public URL is set: the refusal names it as such, and does not advise setting it.
    await expectErrorObject(local, 403, {
      message:
        "Cross-origin request refused: Origin http://localhost is not this server's origin, https://tms.example.com (PARLANCE_PUBLIC_URL)",
    });
    const res = await workspaceFetch(s, "/api/workspace/session", {
      method: "POST",
      origin: "https://tms.example.com",
      json: { email: user.email, password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toEndWith("; HttpOnly; SameSite=Lax; Path=/; Secure");
  } finally {
    await s.close();
  }
});

test("the workspace has its own OpenAPI document with named schemas; /api/v1's is unchanged", async () => {
  const s = await startTestServer("memory");
  try {
    const doc = (await (await workspaceFetch(s, "/api/workspace/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Error", "Me", "User", "Session", "Role"]),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith("/api/workspace/")).toBe(true);
      for (const op of Object.values(item)) expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    }
    const v1 = (await (await s.request("/api/v1/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(v1.paths).some((p) => p.includes("workspace"))).toBe(false);
  } finally {
    await s.close();
  }
});

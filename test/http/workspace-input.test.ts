/**
 * Workspace input no store can carry (found by the issue-10 audit's Postgres fuzz run): U+0000 in a
 * path parameter, a query value or a body field is 400 naming where, on every store (Postgres
 * text refuses it, and a sign-in, a session id, a record's history or a key deletion holding one
 * answered 500 there); names and emails are checked like every other stored text.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import { checkWorkspaceConformance, signedIn, workspaceFetch } from "../support/signed-in.ts";

checkWorkspaceConformance();

await forEachStore((kind) => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer(kind);
  });
  afterEach(() => s.close());

  test("U+0000 in a path parameter, a query value or a body field is 400 naming where", async () => {
    const { orgId, project } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    const records = `/api/workspace/projects/${project.id}/records`;
    for (const [path, init, where] of [
      [`/api/workspace/me/sessions/a%00b`, { method: "DELETE" }, "Path parameter sessionId"],
      [`${records}/history?key=a%00&language=fr`, {}, 'Query parameter "key"'],
      [`${records}?languages=fr&changedBy=%00`, {}, 'Query parameter "changedBy"'],
      [
        `/api/workspace/projects/${project.id}/keys/delete`,
        { method: "POST", json: { keys: ["a\u0000"] } },
        "Body field keys[0]",
      ],
      [`/api/workspace/me`, { method: "PATCH", json: { name: "A\u0000" } }, "Body field name"],
    ] as const) {
      const res = await owner.fetch(path, init);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      await expectErrorObject(res, 400, { message: `${where} contains U+0000` });
    }
    // Signing in with one is refused before any account or limiter is looked up.
    const signIn = await workspaceFetch(s, "/api/workspace/session", {
      method: "POST",
      json: { email: "a\u0000@example.org", password: "correct horse battery" },
    });
    await expectErrorObject(signIn, 400, { message: "Body field email contains U+0000" });
    // A session id of another shape is simply not one of the caller's sessions.
    await expectErrorObject(await owner.fetch("/api/workspace/me/sessions/x", { method: "DELETE" }), 404);
    // Who is not signed in learns nothing about the input.
    const anonymous = await workspaceFetch(s, "/api/workspace/me/sessions/a%00b", { method: "DELETE" });
    await expectErrorObject(anonymous, 401);
  });

  test("a JSON body that is not an object is 400 saying so, also where every member is optional", async () => {
    const { orgId, project } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    for (const [body, kind] of [
      ["[]", "an array"],
      ["[1,2]", "an array"],
      ["null", "null"],
      ['"x"', "a string"],
      ["7", "a number"],
    ] as const) {
      for (const path of ["/api/workspace/me", `/api/workspace/projects/${project.id}`]) {
        const res = await owner.fetch(path, {
          method: "PATCH",
          body,
          headers: { "content-type": "application/json" },
        });
        await expectErrorObject(res, 400, { message: `The request body must be a JSON object, not ${kind}` });
      }
    }
    const me = (await (await owner.fetch("/api/workspace/me")).json()) as {
      data: { user: { name: string } };
    };
    expect(me.data.user.name).toBe(owner.user.name);
  });

  test("a method a path does not take is 405 with Allow, as declared, saying which to use", async () => {
    const { orgId } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    const res = await owner.fetch("/api/workspace/me", { method: "DELETE" });
    expect(res.headers.get("allow")).toBe("GET, PATCH");
    await expectErrorObject(res, 405, {
      message: "Method DELETE is not allowed on /api/workspace/me; use GET, PATCH",
    });
  });

  test("a field of fixed choices refused names the values it takes", async () => {
    const { orgId, project } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    const invite = await owner.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
      method: "POST",
      json: { email: "new@example.com", role: "boss" },
    });
    await expectErrorObject(invite, 400, {
      message:
        'Invalid body field role: must be one of owner, admin, developer, reviewer, translator, not "boss"',
    });
    const upload = await owner.fetch(`/api/workspace/projects/${project.id}/imports`, {
      method: "POST",
      json: { content: "{}", language: "fr", importMode: "append" },
    });
    await expectErrorObject(upload, 400, {
      message: 'Invalid body field importMode: must be one of merge, replace, not "append"',
    });
  });

  test("a query parameter given twice is 400 naming it, after the session is checked (as on /api/v1)", async () => {
    const { orgId, project } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    const records = `/api/workspace/projects/${project.id}/records`;
    for (const [query, name] of [
      ["languages=fr&q=a&q=b", "q"],
      ["languages=fr&%6Cimit=5&limit=1", "limit"],
    ] as const) {
      const res = await owner.fetch(`${records}?${query}`);
      await expectErrorObject(res, 400, { message: new RegExp(`"${name}" appears more than once`) });
    }
    expect((await owner.fetch(`${records}?languages=fr&q=a`)).status).toBe(200);
    await expectErrorObject(await workspaceFetch(s, `${records}?languages=fr&q=a&q=b`), 401);
  });

  test("names and emails holding a character no store can carry are 400 naming it", async () => {
    const { orgId } = await s.seed.world();
    const owner = await signedIn(s, { orgId, role: "owner" });
    for (const [name, point] of [
      ["bell\u0007", "U+0007"],
      ["x\ud800", "U+D800"],
      ["\uffff", "U+FFFF"],
    ] as const) {
      const res = await owner.fetch("/api/workspace/me", { method: "PATCH", json: { name } });
      await expectErrorObject(res, 400, { message: `name contains ${point}` });
      const invite = await owner.fetch(`/api/workspace/orgs/${orgId}/invitations`, {
        method: "POST",
        json: { email: `a${name}@example.org`, role: "translator" },
      });
      await expectErrorObject(invite, 400, { message: `email contains ${point}` });
    }
    const me = (await (await owner.fetch("/api/workspace/me")).json()) as {
      data: { user: { name: string } };
    };
    expect(me.data.user.name).toBe(owner.user.name);
  });
});

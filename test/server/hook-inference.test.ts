/**
 * Elysia reads the source of every hook and handler of a route to learn which parts of the request
 * context it uses ("sucrose" inference), and builds the route's per-request code from that: a
 * cookie jar parsed (one more await), the headers copied into an object, a `server` getter defined.
 * A hook that hands its whole `context` to a function counts as using everything, and a global hook
 * (onRequest, onError) that names `server` counts for every route. This test keeps /api/v1 routes
 * from paying for what they do not read (issue 13, small GET), including routes added later.
 */
import { expect, test } from "bun:test";
import { isAsync } from "elysia/compose";
import { sucrose } from "elysia/sucrose";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createServer } from "../../server/app.ts";
import { rememberAdmission } from "../../server/request-state.ts";
import { guard } from "../../server/routes/guard.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

type Inferred = ReturnType<typeof sucrose>;
type Route = { method: string; path: string; handler: unknown; hooks: Record<string, unknown> };

/** What a route's hooks and handler make Elysia prepare per request. */
const inferred = (route: Route): Inferred =>
  sucrose({ ...route.hooks, handler: route.handler } as Parameters<typeof sucrose>[0]);

/** Parts a route may use only when its own handler names them. */
const OWN_USE: Record<string, (keyof Inferred)[]> = {
  // The token endpoint charges the client's address (Bun's server tells the peer).
  "POST /api/v1/auth/token": ["server"],
};

test("no /api/v1 route parses cookies, copies headers or defines a server getter it does not read", () => {
  const app = createServer(createParlance({ storage: createMemoryStorage() }));
  app.compile();
  const routes = (app as unknown as { router: { history: Route[] } }).router.history.filter((r) =>
    r.path.startsWith("/api/v1"),
  );
  expect(routes.length).toBeGreaterThan(10);
  for (const route of routes) {
    const own = OWN_USE[`${route.method} ${route.path}`] ?? [];
    const used = inferred(route);
    const extra = (["cookie", "headers", "server"] as const).filter((k) => used[k] && !own.includes(k));
    expect({ route: `${route.method} ${route.path}`, extra }).toEqual({
      route: `${route.method} ${route.path}`,
      extra: [],
    });
  }
});

test("the guard's hooks read only the request, the body and the query", () => {
  for (const options of [
    {},
    { body: async (b: unknown) => b },
    { integers: { limit: { min: 1, max: 5 } } },
  ]) {
    const hooks = guard("projects.list", options);
    const used = sucrose({ transform: [hooks.transform] } as unknown as Parameters<typeof sucrose>[0]);
    expect(
      Object.keys(used)
        .filter((k) => used[k as keyof Inferred])
        .sort(),
    ).toEqual(["body", "query"]);
  }
});

test("the request hook decides a request the store and limiter hold in memory without a promise, and Elysia awaits it otherwise", async () => {
  // A promise only when the admission must wait (an access token, a key not in memory): Elysia
  // takes a hook's non-undefined result as the answer, so it must await this hook (issue 13, small GET).
  const parlance = createParlance({ storage: createMemoryStorage() });
  const app = createServer(parlance);
  const org = await parlance.admin.createOrg("Org");
  const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["translations:read"] });
  const hook = (app as unknown as { event: { request: { fn: (c: unknown) => unknown }[] } }).event.request[0];
  expect(hook && isAsync(hook)).toBe(true);
  const context = (authorization: string) => ({
    request: new Request("http://localhost/api/v1/test", { headers: { authorization } }),
    set: { headers: {} as Record<string, string>, status: 200 },
  });
  const asKey = () =>
    new Request("http://localhost/api/v1/test", { headers: { authorization: `Bearer ${key.key}` } });
  expect((await app.handle(asKey())).status).toBe(200); // the limiter's windows load on first use
  const common = context(`Bearer ${key.key}`);
  expect(hook?.fn(common)).toBeUndefined();
  expect(common.set.headers["x-ratelimit-remaining"]).toBe("998");
  const token = await app.handle(
    new Request("http://localhost/api/v1/auth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_secret: key.key }),
    }),
  );
  const { access_token } = (await token.json()) as { access_token: string };
  const waiting = context(`Bearer ${access_token}`);
  const answer = hook?.fn(waiting);
  expect(answer).toBeInstanceOf(Promise);
  expect(await answer).toBeUndefined();
  expect(waiting.set.headers["x-ratelimit-limit"]).toBe("1000");
  const res = await app.handle(
    new Request("http://localhost/api/v1/test", { headers: { authorization: `Bearer ${access_token}` } }),
  );
  expect(res.status).toBe(200);
});

test("GET /api/v1/project answers a project the store holds in memory without a promise, and Elysia awaits it otherwise", async () => {
  const parlance = createParlance({ storage: createMemoryStorage() });
  const app = createServer(parlance);
  app.compile();
  const org = await parlance.admin.createOrg("Org");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: ["fr"],
  });
  const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["translations:read"] });
  const route = (app as unknown as { router: { history: Route[] } }).router.history.find(
    (r) => r.method === "GET" && r.path === "/api/v1/project",
  );
  const handler = route?.handler as (c: unknown) => unknown;
  expect(route && isAsync(handler)).toBe(true);
  const request = new Request("http://localhost/api/v1/project", {
    headers: { authorization: `Bearer ${key.key}` },
  });
  rememberAdmission(
    request,
    await parlance.admit({ authorization: `Bearer ${key.key}`, address: () => "192.0.2.1" }),
  );
  expect(handler({ request, query: { project_id: project.id } })).toEqual({ success: true, data: project });
  const info = handler({ request, query: {} });
  expect(info).toBeInstanceOf(Promise);
  expect(((await info) as { data: { name: string } }).data.name).toBe("ci");
});

import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Parlance } from "../../core/index.ts";
import { createServer } from "../../server/app.ts";
import { expectConformance } from "../support/conformance.ts";
import {
  BASE_URL,
  forEachStore,
  type SeededKey,
  startTestServer,
  type TestServer,
} from "../support/harness.ts";
import { raw } from "../support/raw-http.ts";

/**
 * `GET /api/v1/project` has two ways in on Bun's own server (server/project-now.ts): the route Bun's
 * router calls, which answers what it can decide at once, and the Elysia app, which answers the
 * rest and every other host. Each request here goes through both, one after the other, and the two
 * answers must be the same: status, body, every header (the rate limit's `remaining` one lower, as
 * the second request is counted after the first).
 */
type HostRoute = (request: Request) => Response | Promise<Response>;

const hostRouteOf = (app: { config: { serve?: unknown } }) =>
  (app.config.serve as { routes: Record<string, { GET: HostRoute }> }).routes["/api/v1/project"] as {
    GET: HostRoute;
  };

await forEachStore((kind) => {
  let s: TestServer;
  let world: Awaited<ReturnType<TestServer["seed"]["world"]>>;
  let reader: SeededKey;
  let routes: Record<string, { GET: HostRoute }>;
  let hostRoute: HostRoute;
  beforeEach(async () => {
    s = await startTestServer(kind);
    world = await s.seed.world();
    reader = await s.seed.key(world.orgId, { scopes: ["translations:read"], rateLimit: 4 });
    routes = (s.app.config.serve as { routes: Record<string, { GET: HostRoute }> }).routes;
    hostRoute = hostRouteOf(s.app).GET;
  });
  afterEach(() => s.close());

  const request = (query: string, authorization: string | null) =>
    new Request(`${BASE_URL}/api/v1/project${query}`, {
      headers: authorization === null ? {} : { authorization },
    });
  const bearer = (key: string) => `Bearer ${key}`;

  /** The answer's parts that must match, `remaining` apart; the Error object's time is the clock's. */
  const parts = async (response: Response) => {
    const headers = Object.fromEntries(
      [...response.headers].filter(([name]) => name !== "date" && name !== "x-ratelimit-remaining"),
    );
    return { status: response.status, headers, body: await response.text() };
  };
  const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));

  /** The app's answer, then the host route's; returns the host route's, after checking both. */
  async function both(query: string, authorization: string | null) {
    const viaApp = await s.app.handle(request(query, authorization));
    const hostRequest = request(query, authorization);
    const answered = hostRoute(hostRequest);
    const viaHost = await answered;
    await expectConformance(s.app, hostRequest, viaHost.clone());
    const app = await parts(viaApp);
    const host = await parts(viaHost.clone());
    const counted = viaHost.status !== 429;
    expect(remaining(viaHost)).toBe(remaining(viaApp) - (counted ? 1 : 0));
    expect(host).toEqual(app);
    return {
      status: viaHost.status,
      body: await viaHost.json(),
      answeredAtOnce: answered instanceof Response,
    };
  }

  test("the project: the same answer, given at once where the store holds it in memory", async () => {
    await s.app.handle(request(`?project_id=${world.project.id}`, bearer(reader.key))); // read into memory
    const { status, body, answeredAtOnce } = await both(
      `?project_id=${world.project.id}`,
      bearer(reader.key),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: world.project });
    // Postgres takes its first leases one request at a time, so it may still have to wait here.
    if (kind !== "postgres") expect(answeredAtOnce).toBe(true);
  });

  test("the id in capitals and as a URN: the same answer", async () => {
    await both(`?project_id=${world.project.id.toUpperCase()}`, bearer(reader.key));
    await both(`?project_id=urn:uuid:${world.project.id}`, bearer(reader.key));
  });

  test("an unknown project, another organization's and a deleted one: the same 404", async () => {
    const key = bearer(world.key.key);
    await both("?project_id=00000000-0000-4000-8000-000000000000", key);
    const other = await s.seed.org("Other");
    const foreign = await s.seed.project(other.id);
    await both(`?project_id=${foreign.id}`, key);
    await s.parlance.admin.deleteProject(world.project.id);
    expect((await both(`?project_id=${world.project.id}`, key)).status).toBe(404);
  });

  test("no key, an unknown key, another scheme and a deactivated key: the same 401", async () => {
    const query = `?project_id=${world.project.id}`;
    await both(query, null);
    await both(query, bearer(`pl_${"0".repeat(64)}`));
    await both(query, "Basic dXNlcjpwYXNz");
    await both(query, "bearer");
    await s.parlance.admin.deactivateKey(reader.id);
    expect((await both(query, bearer(reader.key))).status).toBe(401);
  });

  test("a key out of requests: the same 429, Retry-After included, and neither counted", async () => {
    const query = `?project_id=${world.project.id}`;
    await both(query, bearer(reader.key)); // 2 of 4
    await both(query, bearer(reader.key)); // 4 of 4
    const { status } = await both(query, bearer(reader.key));
    expect(status).toBe(429);
  });

  test("other queries are the app's: a bad id, repeated or extra parameters, no id, encoded text", async () => {
    const id = world.project.id;
    for (const query of [
      "?project_id=nope",
      `?project_id=${id}&project_id=${id}`,
      `?project_id=${id}&extra=1`,
      "",
      "?",
      `?project_id=${id.replace("-", "%2D")}`,
      `?project_%69d=${id}`,
      `?PROJECT_ID=${id}`,
      `?Project_Id=${id}`,
      `?project_id=${id}&`,
      `?project_id=URN:UUID:${id}`,
    ]) {
      const answered = hostRoute(request(query, bearer(world.key.key)));
      expect(answered).toBeInstanceOf(Promise);
      const viaHost = await answered;
      const viaApp = await s.app.handle(request(query, bearer(world.key.key)));
      // Without an id the answer is the key's info, whose usage count the first request moved.
      const usage = (p: Awaited<ReturnType<typeof parts>>) => ({
        ...p,
        body: p.body.replace(/"usageCount":\d+/, ""),
      });
      expect(usage(await parts(viaHost))).toEqual(usage(await parts(viaApp)));
    }
  });

  test("over a socket: Bun's router sends the request to the host route", async () => {
    await s.app.handle(request(`?project_id=${world.project.id}`, bearer(reader.key)));
    let calls = 0;
    const route = routes["/api/v1/project"] as { GET: HostRoute };
    route.GET = (r) => {
      calls++;
      return hostRoute(r);
    };
    const server = s.app.listen({ port: 0, hostname: "127.0.0.1" }).server;
    try {
      const url = `http://127.0.0.1:${server?.port}/api/v1/project?project_id=${world.project.id}`;
      const viaSocket = await fetch(url, { headers: { authorization: bearer(reader.key) } });
      expect(viaSocket.status).toBe(200);
      expect(viaSocket.headers.get("x-content-type-options")).toBe("nosniff");
      expect(remaining(viaSocket)).toBe(2);
      expect(((await viaSocket.json()) as { data: unknown }).data).toEqual(world.project);
      expect(calls).toBe(1);
    } finally {
      await s.app.stop();
    }
  });

  test("headers over the cap: the app's 431, through the route", async () => {
    const query = `?project_id=${world.project.id}`;
    const big = { authorization: bearer(reader.key), "x-padding": "a".repeat(13 * 1024) };
    const viaHost = await hostRoute(new Request(`${BASE_URL}/api/v1/project${query}`, { headers: big }));
    const viaApp = await s.app.handle(new Request(`${BASE_URL}/api/v1/project${query}`, { headers: big }));
    expect(viaHost.status).toBe(431);
    expect(await parts(viaHost)).toEqual(await parts(viaApp));
  });

  test("each request is told to onRequest once, answered by the route or handed on", async () => {
    let told = 0;
    const app = createServer(s.parlance, { onRequest: () => told++ });
    const route = hostRouteOf(app).GET;
    const key = bearer(world.key.key);
    for (const query of [`?project_id=${world.project.id}`, "?project_id=nope", ""]) {
      const before = told;
      await route(request(query, key));
      expect(told).toBe(before + 1);
    }
  });

  test("a project not in memory, and a store that fails: the same answers by the route's promise", async () => {
    const failures: number[] = [];
    const build = (parlance: Parlance) =>
      createServer(parlance, { onInternalError: (_e, _r, status) => failures.push(status) });
    const key = bearer(world.key.key);
    const query = `?project_id=${world.project.id}`;
    await s.app.handle(request(query, key)); // the key and its window in memory
    for (const getProject of [
      s.parlance.getProject,
      () => Promise.reject(new Error("disk on fire")),
    ] as Parlance["getProject"][]) {
      const parlance = { ...s.parlance, getProjectNow: () => undefined, getProject };
      const app = build(parlance);
      const viaApp = await app.handle(request(query, key));
      const answered = hostRouteOf(app).GET(request(query, key));
      expect(answered).toBeInstanceOf(Promise);
      const viaHost = await answered;
      expect(remaining(viaHost)).toBe(remaining(viaApp) - 1);
      expect(await parts(viaHost)).toEqual(await parts(viaApp));
    }
    expect(failures).toEqual([500, 500]);
  });

  test("over a socket, a short Host and a request without one: the app's answers", async () => {
    const server = s.app.listen({ port: 0, hostname: "127.0.0.1" }).server;
    const port = server?.port as number;
    try {
      const key = `Authorization: Bearer ${world.key.key}`;
      // Handed on (no id): Elysia's own route answers the key's info, whatever the Host.
      for (const host of ["Host: x", "Host: api", "Host: localhost"]) {
        const info = await raw(port, ["GET /api/v1/project HTTP/1.1", host, key, "Connection: close"]);
        expect(info.status).toBe(200);
        expect(JSON.parse(info.body).data.scopes).toBeDefined();
        const project = await raw(port, [
          `GET /api/v1/project?project_id=${world.project.id} HTTP/1.1`,
          host,
          key,
          "Connection: close",
        ]);
        expect(project.status).toBe(200);
        expect(JSON.parse(project.body).data).toEqual(world.project);
      }
      // HTTP/1.0 without a Host: its URL is the target alone; both ways admit it as any other.
      for (const target of [`/api/v1/project?project_id=${world.project.id}`, "/api/v1/project"]) {
        const answer = await raw(port, [`GET ${target} HTTP/1.0`, key]);
        expect(answer.status).toBe(200);
      }
    } finally {
      await s.app.stop();
    }
  });
});

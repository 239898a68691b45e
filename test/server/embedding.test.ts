/**
 * The HTTP API inside someone else's server: as an Elysia plugin under a prefix, beside the host's
 * own routes and auth, and as a plain fetch handler. Driven with `handle(Request)`, no socket.
 */
import { describe, expect, test } from "bun:test";
import { FormatRegistry } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import { createServer } from "../../server/app.ts";
import { createFetchHandler } from "../../server/fetch-handler.ts";
import { parlancePlugin } from "../../server/plugin.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

const URL_BASE = "http://host.test";

async function world(anonRateLimit = 1000) {
  const clock = createFixedClock("2026-06-01T12:00:00Z");
  const parlance = createParlance({ storage: createMemoryStorage(), clock, anonRateLimit });
  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: ["fr"],
  });
  const { key } = await parlance.admin.createKey(org.id, {
    name: "ci",
    scopes: ["translations:write", "translations:read", "export:read"],
  });
  return { parlance, project, key };
}

/** A host app with its own public route, its own auth on /admin, and Parlance under /i18n. */
function hostApp(plugin: ReturnType<typeof parlancePlugin>) {
  const admin = new Elysia()
    .onBeforeHandle(({ request, set }) => {
      if (request.headers.get("x-host-session") !== "ok") {
        set.status = 401;
        return "host says no";
      }
    })
    .get("/admin", () => "host admin");
  return new Elysia()
    .get("/", () => "host home")
    .post("/echo", ({ body }) => body)
    .use(admin)
    .use(plugin);
}

const call = (app: { handle(r: Request): Promise<Response> }, path: string, init?: RequestInit) =>
  app.handle(new Request(`${URL_BASE}${path}`, init));

/**
 * The docs page as a browser at `base` meets it: every file it names is under `base` and answers,
 * init.js asks for the document under `base`, and the document's server is `base` (for "Try it out").
 */
async function expectDocsUnder(app: { handle(r: Request): Promise<Response> }, base: string) {
  const page = await call(app, `${base}/api/v1/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
  expect(sources).toEqual([
    "data:,",
    `${base}/api/v1/docs/swagger-ui.css`,
    `${base}/api/v1/openapi.json`,
    `${base}/api/v1/docs/swagger-ui-bundle.js`,
    `${base}/api/v1/docs/init.js`,
  ]);
  for (const source of sources.slice(1)) expect((await call(app, source)).status, source).toBe(200);
  const init = await (await call(app, `${base}/api/v1/docs/init.js`)).text();
  expect(init).toContain(`url: "${base}/api/v1/openapi.json"`);
  const doc = (await (await call(app, `${base}/api/v1/openapi.json`)).json()) as {
    servers: { url: string }[];
  };
  expect(doc.servers.map((server) => server.url)).toEqual([base || "/"]);
}

describe("parlancePlugin under a prefix", () => {
  test("the API answers under the prefix: health, push, job, pull, OpenAPI, 404 and 405", async () => {
    const { parlance, project, key } = await world();
    const app = hostApp(parlancePlugin(parlance, { prefix: "/i18n/" }));
    const auth = { authorization: `Bearer ${key}` };

    expect(await (await call(app, "/i18n/healthz")).json()).toEqual({ status: "ok" });
    const pushed = await call(app, "/i18n/api/v1/push", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ projectId: project.id, language: "fr", content: '{"hello":"Bonjour"}' }),
    });
    expect(pushed.status).toBe(202);
    const { jobId } = (await pushed.json()) as { jobId: string };
    await parlance.idle();
    const job = await call(app, `/i18n/api/v1/jobs/${jobId}`, { headers: auth });
    expect(await job.json()).toMatchObject({ data: { id: jobId, status: "completed" } });
    const pulled = await call(app, `/i18n/api/v1/pull?project_id=${project.id}&language=fr`, {
      headers: auth,
    });
    expect(await pulled.json()).toEqual({ hello: "Bonjour" });
    expect(pulled.headers.get("x-ratelimit-limit")).not.toBeNull();

    const doc = (await (await call(app, "/i18n/api/v1/openapi.json")).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toContain("/api/v1/push");
    const missing = await call(app, "/i18n/api/v1/nothing-here", { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "No route GET /api/v1/nothing-here" });
    const wrongMethod = await call(app, "/i18n/api/v1/push", { method: "DELETE", headers: auth });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    await parlance.close();
  });

  test("the docs page under the prefix loads its files and the document from under the prefix", async () => {
    const { parlance } = await world();
    const app = hostApp(parlancePlugin(parlance, { prefix: "/i18n" }));
    await expectDocsUnder(app, "/i18n");
    await parlance.close();
  });

  test("the host keeps its own routes, body parsing, auth and 404s, untouched by Parlance's hooks", async () => {
    const { parlance } = await world(1);
    const app = hostApp(parlancePlugin(parlance, { prefix: "/i18n" }));
    for (let i = 0; i < 3; i++) {
      const home = await call(app, "/");
      expect(await home.text()).toBe("host home");
      expect(home.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect(await (await call(app, "/admin")).text()).toBe("host says no");
    expect(await (await call(app, "/admin", { headers: { "x-host-session": "ok" } })).text()).toBe(
      "host admin",
    );
    const echo = await call(app, "/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ a: 1 });
    // The host's own 404 (not Parlance's Error object), even for /api/v1 outside the prefix.
    const notParlance = await call(app, "/api/v1/projects");
    expect(notParlance.status).toBe(404);
    expect(notParlance.headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("rate limits apply under the prefix, per client address, and spare the host's routes", async () => {
    const { parlance } = await world(1);
    const app = hostApp(parlancePlugin(parlance, { prefix: "/i18n" }));
    expect((await call(app, "/i18n/api/v1/projects")).status).toBe(401);
    const refused = await call(app, "/i18n/api/v1/projects");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect((await call(app, "/")).status).toBe(200);
  });

  test("two instances with different options mount side by side in one host", async () => {
    const a = await world();
    const b = await world();
    const app = new Elysia()
      .use(parlancePlugin(a.parlance, { prefix: "/a", development: true }))
      .use(parlancePlugin(b.parlance, { prefix: "/b" }));
    const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    expect((await call(app, "/a/api/v1/projects", auth(a.key))).status).toBe(200);
    expect((await call(app, "/b/api/v1/projects", auth(a.key))).status).toBe(401);
    expect((await call(app, "/b/api/v1/projects", auth(b.key))).status).toBe(200);
    const bad = (await (await call(app, "/a/api/v1/jobs/nope", auth(a.key))).json()) as object;
    const terse = (await (await call(app, "/b/api/v1/jobs/nope", auth(b.key))).json()) as object;
    expect(Object.keys(bad)).toContain("details");
    expect(Object.keys(terse)).not.toContain("details");
  });
});

describe("createFetchHandler", () => {
  test("serves the API from a web-standard Request, keyed on the address the runtime passes", async () => {
    const { parlance } = await world(1);
    const handle = createFetchHandler(parlance);
    const req = (headers: Record<string, string> = {}) =>
      new Request(`${URL_BASE}/api/v1/projects`, { headers });
    expect((await handle(req(), { clientAddress: "192.0.2.1" })).status).toBe(401);
    expect((await handle(req(), { clientAddress: "192.0.2.1" })).status).toBe(429);
    // A client cannot pick another bucket through X-Forwarded-For.
    expect(
      (await handle(req({ "x-forwarded-for": "198.51.100.7" }), { clientAddress: "192.0.2.1" })).status,
    ).toBe(429);
    expect((await handle(req(), { clientAddress: "192.0.2.2" })).status).toBe(401);
  });

  test("behind the operator's proxy (trustProxy) the forwarded address counts", async () => {
    const { parlance } = await world(1);
    const handle = createFetchHandler(parlance, { trustProxy: true });
    const req = (forwarded: string) =>
      new Request(`${URL_BASE}/api/v1/projects`, { headers: { "x-forwarded-for": forwarded } });
    expect((await handle(req("198.51.100.7"))).status).toBe(401);
    expect((await handle(req("198.51.100.7"))).status).toBe(429);
    expect((await handle(req("198.51.100.8"))).status).toBe(401);
  });

  test("with N trusted hops the address is N places from the right; what the client wrote is never read", async () => {
    for (const [hops, chain] of [
      [1, (client: string) => `forged-${crypto.randomUUID()}, ${client}`],
      [2, (client: string) => `forged-${crypto.randomUUID()}, ${client}, 10.0.0.2`],
    ] as const) {
      const { parlance } = await world(1);
      const handle = createFetchHandler(parlance, { trustProxy: hops });
      const req = (forwarded: string) =>
        new Request(`${URL_BASE}/api/v1/projects`, { headers: { "x-forwarded-for": forwarded } });
      expect((await handle(req(chain("198.51.100.7")))).status).toBe(401);
      // A new forged entry on the left each time: still the same client, still limited.
      expect((await handle(req(chain("198.51.100.7")))).status).toBe(429);
      expect((await handle(req(chain("198.51.100.8")))).status).toBe(401);
    }
  });

  test("behind a host that strips its prefix (Hono's mount), basePath tells the docs page where it is", async () => {
    const { parlance } = await world();
    const handle = createFetchHandler(parlance, { basePath: "/i18n/" });
    const mounted = {
      handle: (request: Request) => {
        const url = new URL(request.url);
        expect(url.pathname).toStartWith("/i18n/");
        url.pathname = url.pathname.slice("/i18n".length);
        return handle(new Request(url, request));
      },
    };
    await expectDocsUnder(mounted, "/i18n");
    // The browser workspace works at the root of an origin only: under a prefix it is not served
    // (404), rather than a page whose files and calls miss; its API is.
    const page = await mounted.handle(new Request("http://localhost/i18n/"));
    expect(page.status).toBe(404);
    expect((await mounted.handle(new Request("http://localhost/i18n/api/workspace/me"))).status).toBe(401);
    // At the root, as before: the page names root paths and the document's server is "/".
    await expectDocsUnder({ handle: (request: Request) => createFetchHandler(parlance)(request) }, "");
    const root = await createFetchHandler(parlance)(new Request("http://localhost/"));
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toStartWith("text/html");
    await parlance.close();
  });

  test("a streamed request body reaches the API", async () => {
    const { parlance, project, key } = await world();
    const handle = createFetchHandler(parlance);
    const body = JSON.stringify({
      projectId: project.id,
      language: "fr",
      content: '{"a":"b"}',
      dryRun: true,
    });
    const stream = new Blob([body]).stream();
    const response = await handle(
      new Request(`${URL_BASE}/api/v1/push`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "x-forwarded-for": "x",
        },
        body: stream,
        duplex: "half",
      } as RequestInit),
      { clientAddress: "192.0.2.9" },
    );
    expect(await response.json()).toMatchObject({ dryRun: true, toCreate: 1 });
  });
});

test("creating servers, plugins and handlers changes nothing process-wide", async () => {
  const { parlance } = await world();
  const formats = () => new Map(FormatRegistry.Entries());
  const globals = () => Object.getOwnPropertyNames(globalThis).sort();
  const [formatsBefore, globalsBefore] = [formats(), globals()];
  createServer(parlance);
  parlancePlugin(parlance, { prefix: "/x" });
  await createFetchHandler(parlance)(new Request(`${URL_BASE}/healthz`));
  expect(formats()).toEqual(formatsBefore);
  expect(globals()).toEqual(globalsBefore);
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Browser } from "playwright-core";
import { createParlance } from "../../adapters/create-parlance.ts";
import { parlancePlugin } from "../../server/plugin.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { launchBrowser } from "../support/browser.ts";
import { type ServerProcess, startServerProcess } from "../support/process.ts";

/**
 * Issue 14: the docs page works on a closed network. Debian's Chromium opens /api/v1/docs from a
 * real server process; every request to another origin is blocked and recorded, and each operation
 * of the document must be on the page. Issue 9: the same under a prefix of a host's Elysia app.
 */

let server: ServerProcess;
let browser: Browser;
beforeAll(async () => {
  server = await startServerProcess({ PARLANCE_DATABASE_URL: "memory:" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.proc.kill("SIGTERM");
  await server?.exited;
});

interface Operation {
  method: string;
  path: string;
  summary: string;
}

/**
 * Opens `${origin}${base}/api/v1/docs` with every request to another origin blocked; the page must
 * show every operation of the document and load nothing from elsewhere, nor from outside `base`.
 */
async function expectDocsRendered(origin: string, base: string) {
  const doc = (await (await fetch(`${origin}${base}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { summary: string }>>;
  };
  const expected: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, summary: op.summary })),
  );

  const context = await browser.newContext();
  const requested: string[] = [];
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    requested.push(url);
    if (new URL(url).origin === origin) return route.continue();
    blocked.push(url);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  // A CSP violation, a failed load or a script error shows up here.
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));

  const response = await page.goto(`${origin}${base}/api/v1/docs`);
  expect(response?.status()).toBe(200);
  await page.waitForSelector(".opblock", { timeout: 30_000 });
  await page.waitForFunction((n) => document.querySelectorAll(".opblock").length >= n, expected.length);
  const rendered = await page.$$eval(".opblock", (blocks) =>
    blocks.map((b) => ({
      method: b.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "",
      // The viewer breaks paths with zero-width spaces; deprecated paths are styled differently.
      path: (b.querySelector(".opblock-summary-path, .opblock-summary-path__deprecated")?.textContent ?? "")
        .replace(/\u200b/g, "")
        .trim(),
      summary: b.querySelector(".opblock-summary-description")?.textContent?.trim() ?? "",
    })),
  );
  const key = (o: Operation) => `${o.method} ${o.path} ${o.summary}`;
  expect(rendered.map(key).sort()).toEqual(expected.map(key).sort());
  expect(await page.locator(".info .title").textContent()).toContain("Parlance API");

  expect(blocked).toEqual([]);
  expect(requested.every((url) => url.startsWith(`${origin}${base}/api/v1/`))).toBe(true);
  expect(requested).toContain(`${origin}${base}/api/v1/openapi.json`);
  expect(problems).toEqual([]);
  await context.close();
}

test("the docs page renders every operation with no request leaving the server's origin", async () => {
  await expectDocsRendered(new URL(server.baseUrl).origin, "");
}, 60_000);

test("mounted under a prefix in a host's Elysia app, the page loads everything from under the prefix", async () => {
  const parlance = createParlance({ storage: createMemoryStorage() });
  const host = new Elysia().get("/", () => "host home").use(parlancePlugin(parlance, { prefix: "/i18n" }));
  const served = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => host.handle(request) });
  try {
    await expectDocsRendered(`http://127.0.0.1:${served.port}`, "/i18n");
  } finally {
    await served.stop(true);
    await parlance.close();
  }
}, 60_000);

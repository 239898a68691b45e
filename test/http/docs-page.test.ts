import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/harness.ts";
import { expectRateHeaders } from "../support/http.ts";

/** The page and its files come from Parlance itself; the Chromium test (test/process) renders it. */
describe("docs page", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer("memory");
  });
  afterEach(() => s.close());

  test("is served without a key, with rate-limit headers and a CSP allowing only its own origin", async () => {
    const res = await s.request("/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectRateHeaders(res);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/https?:/);
    const html = await res.text();
    // Nothing from elsewhere, no inline script: every script and stylesheet is a path of this server.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(sources).toEqual([
      "data:,",
      "/api/v1/docs/swagger-ui.css",
      "/api/v1/openapi.json",
      "/api/v1/docs/swagger-ui-bundle.js",
      "/api/v1/docs/init.js",
    ]);
  });

  test("its files are served by this server, and the viewer asks for the document by its absolute path", async () => {
    for (const [path, type] of [
      ["/api/v1/docs/swagger-ui.css", "text/css"],
      ["/api/v1/docs/swagger-ui-bundle.js", "text/javascript"],
      ["/api/v1/docs/init.js", "text/javascript"],
    ] as const) {
      const res = await s.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toStartWith(type);
      expectRateHeaders(res);
      expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(10);
    }
    const init = await (await s.request("/api/v1/docs/init.js")).text();
    expect(init).toContain('url: "/api/v1/openapi.json"');
    expect(init).toContain("validatorUrl: null");
  });

  test("an unchanged file answers 304 to If-None-Match; an unknown file is 404", async () => {
    const first = await s.request("/api/v1/docs/swagger-ui-bundle.js");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await s.request("/api/v1/docs/swagger-ui-bundle.js", {
      headers: { "if-none-match": etag ?? "" },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const missing = await s.request("/api/v1/docs/nope.js");
    expect(missing.status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UI_ENTRY } from "../../ui/dist/bundle.ts";
import { BASE_URL, startTestServer, type TestServer } from "../support/harness.ts";

/** The browser workspace's page and assets (issue 12); the Chromium tests (test/ui) render them. */
describe("workspace page", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("memory");
  });
  afterAll(() => s.close());
  /** Not API operations: sent straight to the app, past the harness's OpenAPI conformance check. */
  const get = (path: string, headers: Record<string, string> = {}) =>
    s.app.handle(new Request(BASE_URL + path, { headers }));

  test("every workspace path answers the page with a strict CSP, no framing and no cache of the page", async () => {
    for (const path of ["/", "/signin", "/setup", "/invite", "/reset", "/account", "/projects/x/editor"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).not.toMatch(/https?:/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const html = await res.text();
      expect(html).not.toMatch(/https?:\/\//);
      expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
      expect(html).not.toContain(" style=");
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(sources).toEqual([
        "data:,",
        `/assets/${UI_ENTRY.style}`,
        `/assets/${UI_ENTRY.script}`,
        "/api/v1/docs",
      ]);
    }
  });

  test("hashed assets are cached for a year and revalidate with their ETag", async () => {
    for (const [name, type] of [
      [UI_ENTRY.script, "text/javascript; charset=utf-8"],
      [UI_ENTRY.style, "text/css; charset=utf-8"],
    ] as const) {
      const res = await get(`/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await res.text()).length).toBeGreaterThan(100);
      const again = await get(`/assets/${name}`, { "if-none-match": res.headers.get("etag") ?? "" });
      expect(again.status).toBe(304);
    }
    expect((await get("/assets/nothing-here.js")).status).toBe(404);
    expect((await get("/assets/__proto__")).status).toBe(404);
  });

  test("the API keeps its own answers beside the workspace", async () => {
    expect((await s.request("/api/v1/no-such-route")).status).toBe(404);
    expect((await s.request("/api/v1/test")).status).toBe(401);
    expect((await s.request("/healthz")).status).toBe(200);
  });
});

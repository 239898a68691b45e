/** What every way of running Parlance must serve: the docs page and its files, from itself. */
import { expect } from "bun:test";
import { join } from "node:path";
import { REPO } from "./process.ts";

const VIEWER = join(REPO, "node_modules", "swagger-ui-dist");

/** Fetches the docs page at `baseUrl` and every file it loads; the viewer's files are byte-exact. */
export async function expectDocsServed(baseUrl: string): Promise<void> {
  const page = await fetch(`${baseUrl}/api/v1/docs`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
  const html = await page.text();
  const sources = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="(\/[^"]+)"/g)].map(
    (m) => m[1] as string,
  );
  expect(sources.length).toBeGreaterThanOrEqual(3);
  for (const source of sources) {
    const res = await fetch(`${baseUrl}${source}`);
    expect(res.status, source).toBe(200);
    expect(res.headers.get("x-ratelimit-limit"), source).toMatch(/^\d+$/);
    const name = source.split("/").pop() as string;
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (name.startsWith("swagger-ui")) {
      const original = new Uint8Array(await Bun.file(join(VIEWER, name)).arrayBuffer());
      expect(bytes.length, source).toBe(original.length);
      expect(Buffer.from(bytes).equals(Buffer.from(original)), source).toBe(true);
    }
  }
  const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as { paths: object };
  expect(Object.keys(doc.paths)).toContain("/api/v1/push");
}

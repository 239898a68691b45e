/** What every way of running Parlance must serve: the browser workspace's page and assets, from itself. */
import { expect } from "bun:test";
import { UI_FILES } from "../../ui/dist/bundle.ts";

/** Fetches the workspace page at `baseUrl` and every file it loads; each is the bundle's, byte for byte. */
export async function expectWorkspaceServed(baseUrl: string): Promise<void> {
  const page = await fetch(`${baseUrl}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
  const html = await page.text();
  const sources = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="(\/assets\/[^"]+)"/g)].map(
    (m) => m[1] as string,
  );
  expect(sources.length).toBe(2);
  for (const source of sources) {
    const res = await fetch(`${baseUrl}${source}`);
    expect(res.status, source).toBe(200);
    const name = source.slice("/assets/".length);
    // Compared, not printed: a failure would otherwise dump the whole bundle.
    expect(Object.hasOwn(UI_FILES, name), `${source} is a file of ui/dist/bundle.ts`).toBe(true);
    expect((await res.text()) === UI_FILES[name], `${source} is served byte for byte`).toBe(true);
  }
}

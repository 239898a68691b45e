import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { BUNDLE_MODULE, buildUi } from "../../ui/build.ts";
import { UI_ENTRY, UI_FILES } from "../../ui/dist/bundle.ts";

/**
 * The workspace's bundle is generated from ui/src and committed (the server imports it, so every
 * runtime and the binary serve it). It must be what the sources build to today.
 */
test("ui/dist/bundle.ts is what ui/src builds to (run `bun run build:ui` after changing the UI)", async () => {
  const { module } = await buildUi();
  expect(readFileSync(BUNDLE_MODULE, "utf8") === module).toBe(true);
}, 60_000);

/** Issue 12: the JavaScript a first visit loads (the entry and the chunks it imports statically). */
const INITIAL_JS_BUDGET = 100 * 1024;

function initialScripts(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const text = UI_FILES[name] ?? "";
  // Static imports only (`import … from "./x.js"` and bare `import "./x.js"`), not `import("./x.js")`.
  for (const m of text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) initialScripts(m[1] as string, seen);
  return seen;
}

test("the initial JavaScript is at most 100 KB gzipped", () => {
  const files = [...initialScripts(UI_ENTRY.script)];
  const gzipped = files.reduce(
    (sum, f) => sum + Bun.gzipSync(new TextEncoder().encode(UI_FILES[f] ?? "")).length,
    0,
  );
  expect(files.length).toBeGreaterThan(0);
  expect(gzipped).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
});

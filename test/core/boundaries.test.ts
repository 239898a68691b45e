import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { specifiers } from "./specifiers.ts";

/**
 * core/ is runtime-agnostic: it may import only other core modules and the few npm packages below.
 * A test, not a convention, because one stray import would tie every embedder to Bun, Node, Elysia
 * or a database driver.
 */
const ROOT = join(import.meta.dir, "..", "..");
const CORE = join(ROOT, "core");
const FORBIDDEN = [
  /^bun(:|$)/,
  /^node:/,
  /^elysia/,
  /^@elysiajs\//,
  /^postgres$/,
  /^p-queue$/,
  /sqlite/,
  /(^|\/)storage\//,
  /(^|\/)adapters\//,
  /(^|\/)server\//,
];

/**
 * npm packages core may import: pure JavaScript that runs in any runtime and in the browser (the
 * workspace runs core/checks in the page). The last test below proves it for each, dependencies
 * included; checks-bundle.test.ts bundles core/checks for the browser.
 */
export const ALLOWED_PACKAGES: readonly string[] = [
  "@formatjs/icu-messageformat-parser", // ICU MessageFormat syntax for core/checks (docs/decisions.md)
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("core/ boundaries", () => {
  const files = sourceFiles(CORE);

  test("core/ has source files to check", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  test("no core module imports a runtime, framework, driver, adapter or the server", () => {
    const offending: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        const outsideCore = spec.startsWith(".") && !join(file, "..", spec).startsWith(CORE);
        const allowed = spec.startsWith(".") || ALLOWED_PACKAGES.includes(spec);
        if (FORBIDDEN.some((re) => re.test(spec)) || outsideCore || !allowed) {
          offending.push(`${relative(ROOT, file)} imports ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  test("the checker catches each kind of forbidden import", () => {
    const sample = [
      'import { Database } from "bun:sqlite";',
      'import { createHash } from "node:crypto";',
      'import type { Elysia } from "elysia";',
      'export { x } from "../storage/sqlite/index.ts";',
      'const q = await import("p-queue");',
      'const pg = require("postgres");',
    ].join("\n");
    expect(specifiers(sample)).toEqual([
      "bun:sqlite",
      "node:crypto",
      "elysia",
      "../storage/sqlite/index.ts",
      "p-queue",
      "postgres",
    ]);
  });

  test("the allowed packages and their dependencies import only each other", () => {
    const offending: string[] = [];
    const seen = new Set<string>();
    const queue = [...ALLOWED_PACKAGES];
    let files = 0;
    while (queue.length > 0) {
      const name = queue.shift() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      const dir = join(ROOT, "node_modules", name);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      const deps = Object.keys(manifest.dependencies ?? {});
      queue.push(...deps);
      for (const file of packageFiles(dir)) {
        files++;
        for (const spec of specifiers(readFileSync(file, "utf8"))) {
          const ok = spec.startsWith(".") || deps.some((d) => spec === d || spec.startsWith(`${d}/`));
          if (!ok) offending.push(`${relative(ROOT, file)} imports ${spec}`);
        }
      }
    }
    expect(files).toBeGreaterThan(seen.size);
    expect(offending).toEqual([]);
  });
});

/** The JavaScript a package ships (not its maps, types or nested node_modules). */
function packageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === "node_modules"
        ? []
        : packageFiles(join(dir, e.name))
      : /\.(c|m)?js$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

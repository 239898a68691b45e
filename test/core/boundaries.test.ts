import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * core/ is runtime-agnostic: it may import only other core modules. A test, not a convention,
 * because one stray import would tie every embedder to Bun, Node, Elysia or a database driver.
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier: static imports/exports, dynamic import(), require(). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
    /\brequire\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
  ];
  for (const p of patterns) for (const m of source.matchAll(p)) found.push(m[1] as string);
  return found;
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
        if (FORBIDDEN.some((re) => re.test(spec)) || outsideCore || !spec.startsWith(".")) {
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
});

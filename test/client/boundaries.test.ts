import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The client is a plain HTTP client of the public API (API.md: "adds no logic beyond transport"):
 * it may take core's types for the shapes of answers, never its use cases or the storage. The one
 * piece of core code it runs is `unflatten`, a pure function of the exported file (pull --nested),
 * shared with the workspace so both nest files by the same rules.
 */
const CLIENT = join(import.meta.dir, "..", "..", "server", "cli", "client");

test("server/cli/client imports only itself, ../args.ts, node: modules, core types and core's unflatten", () => {
  const offending: string[] = [];
  const files = readdirSync(CLIENT).filter((f) => f.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const source = readFileSync(join(CLIENT, file), "utf8");
    for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?[^'"`;]*?\bfrom\s+["']([^"']+)["']/g)) {
      const [, , typeOnly, spec = ""] = m;
      const allowed =
        spec.startsWith("node:") ||
        (spec.startsWith("./") && !spec.includes("..")) ||
        spec === "../args.ts" ||
        spec === "../../../core/unflatten.ts" ||
        (typeOnly !== undefined && spec === "../../../core/index.ts");
      if (!allowed) offending.push(`${file}: ${m[0]}`);
    }
    if (/\bimport\s*\(|\brequire\s*\(/.test(source)) offending.push(`${file}: dynamic import`);
  }
  expect(offending).toEqual([]);
});

import { expect, test } from "bun:test";
import { join } from "node:path";
import { specifiers } from "./specifiers.ts";

/**
 * The workspace runs core/checks in the page while a person types: it must bundle for the browser
 * on its own, with nothing left to import, and stay small. The size is recorded in docs/checks.md.
 */
const ENTRY = join(import.meta.dir, "..", "..", "core", "checks", "index.ts");
/** Budget for the minified, gzipped bundle: 15 KiB today, half of it the ICU parser (docs/checks.md). */
const GZIP_BUDGET = 20 * 1024;

test("core/checks bundles for the browser, self-contained and within its size budget", async () => {
  const result = await Bun.build({ entrypoints: [ENTRY], target: "browser", minify: true });
  expect(result.logs.filter((l) => l.level === "error")).toEqual([]);
  expect(result.success).toBe(true);
  expect(result.outputs.length).toBe(1);
  const code = await (result.outputs[0] as Blob).text();
  expect(specifiers(code)).toEqual([]);
  expect(code).not.toMatch(/\b(node|bun):/);
  // The bundle really is the checks: it runs in a fresh module scope and finds a missing placeholder.
  const url = `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
  const mod = (await import(url)) as typeof import("../../core/checks/index.ts");
  const warnings = mod.checkTranslation({
    base: "Hi {name}",
    value: "Salut",
    baseLanguage: "en",
    language: "fr",
  });
  expect(warnings.map((w) => w.code)).toEqual(["placeholder-missing"]);
  expect(Bun.gzipSync(code).length).toBeLessThan(GZIP_BUDGET);
});

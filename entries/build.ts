/**
 * Builds the npm package into dist/lib (JavaScript, source maps) and dist/types (declarations).
 * The entries are read from package.json's `exports` (`./dist/lib/<name>.js` ← `entries/<name>.ts`),
 * so the two cannot drift. All entries build in one `bun build` with code splitting: modules they
 * share (ParlanceError above all) exist once, so `instanceof` holds across subpaths.
 * Run: bun run build:lib (npm pack runs it as prepack). It is the one file here that is not an entry.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, { types: string; bun?: string; default: string }>;
  dependencies: Record<string, string>;
};

/**
 * Every dependency stays an import of the installed package. The docs viewer (swagger-ui-dist) is
 * a dev dependency: its files are inlined as text at build time (Node cannot import a `.css` file),
 * as `bun build --compile` does for the binary, so users never install it (nor its postinstall).
 */
const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);

/** entries/<name>.ts for every `./dist/lib/<name>.js` of the exports map (Bun's and the others'). */
export function entrySources(exports: typeof pkg.exports): string[] {
  return Object.values(exports).flatMap((target) =>
    [target.bun, target.default]
      .filter((file) => file !== undefined)
      .map((file) => {
        const name = /^\.\/dist\/lib\/([a-z0-9/-]+)\.js$/.exec(file)?.[1];
        if (!name) throw new Error(`exports target ${file} is not ./dist/lib/<name>.js`);
        return join(ROOT, "entries", `${name}.ts`);
      }),
  );
}

/**
 * The `parlance` bin (dist/lib/bin.js): on Bun it starts the command line (dist/lib/cli.js, which
 * hints name); elsewhere it says the command needs Bun, where the bundle itself would fail on its
 * `bun:` imports with a loader error.
 */
const CLI_LAUNCHER = `#!/usr/bin/env bun
if (typeof globalThis.Bun === "undefined") {
  console.error("parlance: the command line runs on Bun only (bun:sqlite, Bun.serve). Install Bun (npm i -g bun) and run it with bun; the package's entries embed Parlance in Node 22+ and Deno.");
  process.exit(1);
}
await import("./cli.js");
`;

async function build(options: Parameters<typeof Bun.build>[0]): Promise<void> {
  const result = await Bun.build(options);
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("bun build failed");
  }
}

/** Declarations keep the sources' `.ts` specifiers; published ones name the `.js` they describe. */
function rewriteSpecifiers(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/(from\s+["']\.{1,2}\/[^"']+)\.ts(["'])/g, "$1.js$2"));
  }
}

if (import.meta.main) {
  rmSync(join(ROOT, "dist", "lib"), { recursive: true, force: true });
  rmSync(join(ROOT, "dist", "types"), { recursive: true, force: true });
  await build({
    entrypoints: entrySources(pkg.exports),
    outdir: join(ROOT, "dist", "lib"),
    target: "node", // plain ESM with node: imports, which Bun, Deno and Node all load
    format: "esm",
    splitting: true,
    sourcemap: "linked",
    external,
    root: join(ROOT, "entries"),
    naming: { entry: "[dir]/[name].[ext]", chunk: "chunks/[name]-[hash].[ext]" },
  });
  // The `parlance` command is Bun-only (bun:sqlite, Bun.serve): its own bundle, run by bun.
  await build({
    entrypoints: [join(ROOT, "server", "cli.ts")],
    outdir: join(ROOT, "dist", "lib"),
    target: "bun",
    format: "esm",
    sourcemap: "linked",
    external,
    naming: "cli.[ext]",
  });
  writeFileSync(join(ROOT, "dist", "lib", "bin.js"), CLI_LAUNCHER, { mode: 0o755 });
  const tsc = Bun.spawnSync(["bun", "x", "tsc", "-p", "tsconfig.lib.json"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (tsc.exitCode !== 0) throw new Error("declarations failed to build");
  rewriteSpecifiers(join(ROOT, "dist", "types"));
  console.error("built dist/lib and dist/types");
}

/**
 * Issue 9's proof: the package works from the tarball `npm pack` makes, installed into a fresh
 * project that cannot see the repository, under Bun, Deno and Node 22+. Every example runs there,
 * its declarations type-check under `tsc --strict`, and a deep import is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTestSchema, POSTGRES_URL, type TestSchema } from "../storage/postgres-setup.ts";
import { REPO } from "../support/process.ts";
import {
  type Consumer,
  createConsumer,
  DENO,
  RUNTIMES,
  type Runtime,
  run,
  script,
  testFile,
} from "./consumer.ts";

let consumer: Consumer;
const schemas: TestSchema[] = [];

/** The README's ten-line embedding example, the first TypeScript block of the file. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no TypeScript block");
  return block;
}

beforeAll(async () => {
  consumer = await createConsumer();
  writeFileSync(join(consumer.dir, "readme-example.ts"), readmeExample());
  mkdirSync(join(consumer.dir, "node-only"));
}, 400_000);

afterAll(async () => {
  await Promise.all(schemas.map((s) => s.drop()));
  if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
});

const inConsumer = (command: string[]) => run(command, consumer.dir);

/** The server examples, the runtimes each runs on, and where it mounts the API. */
const SERVER_EXAMPLES: { file: string; runtimes: Runtime[]; prefix: string; home: string }[] = [
  { file: "elysia-mount.ts", runtimes: RUNTIMES, prefix: "/i18n", home: "my shop" },
  { file: "fetch-hono.ts", runtimes: RUNTIMES, prefix: "/i18n", home: "my app" },
  { file: "fetch-node.ts", runtimes: RUNTIMES, prefix: "", home: "my app" },
  { file: "fetch-bun.ts", runtimes: ["bun"], prefix: "", home: "my app" },
  { file: "fetch-deno.ts", runtimes: ["deno"], prefix: "", home: "my app" },
];

/** Asserts a clean exit, showing the output when it was not. */
function succeeded(result: { code: number; stdout: string; stderr: string }): string {
  if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

test("the tarball holds the built package and nothing of the sources", async () => {
  const listing = succeeded(await run(["tar", "tzf", consumer.tarball], consumer.dir)).split("\n");
  const top = new Set(listing.filter(Boolean).map((f) => f.replace(/^package\//, "").split("/")[0]));
  expect([...top].sort()).toEqual(["CHANGELOG.md", "README.md", "dist", "package.json"]);
  expect(listing.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);
  expect(listing).toContain("package/dist/lib/index.js.map");
});

test("the examples type-check against the published declarations with tsc --strict", async () => {
  const tsc = join(consumer.dir, "node_modules", ".bin", "tsc");
  // As most projects run it (skipLibCheck): the examples' use of every entry is checked.
  succeeded(await inConsumer([tsc, "--strict", "-p", ".", "--skipLibCheck", "true"]));
  // Every declaration file checked too: none of Parlance's may fail. Elysia's own declarations do
  // not pass this check (upstream), so errors there are set aside, and only there.
  const full = await inConsumer([tsc, "--strict", "-p", ".", "--skipLibCheck", "false"]);
  const failing = new Set(
    full.stdout
      .split("\n")
      .map((line) => /^(\S+?)\(\d+,\d+\): error/.exec(line)?.[1])
      .filter((file): file is string => file !== undefined && !file.startsWith("node_modules/elysia/")),
  );
  expect([...failing]).toEqual([]);
}, 120_000);

test("every entry but bun:sqlite type-checks in a Node project without Bun's types", async () => {
  writeFileSync(
    join(consumer.dir, "node-only", "check.ts"),
    [
      'import { createParlance, type ParlanceEvents } from "parlance-tms";',
      'import { createCore } from "parlance-tms/core";',
      'import { systemClock } from "parlance-tms/clock";',
      'import { runtimeHasher } from "parlance-tms/hasher";',
      'import { createPQueueJobQueue } from "parlance-tms/queue";',
      'import { createMemoryRateLimiter, createPostgresRateLimiter } from "parlance-tms/rate-limiter";',
      'import { createFetchHandler, parlancePlugin } from "parlance-tms/server";',
      'import { createMemoryStorage } from "parlance-tms/storage/memory";',
      'import { createNodeSqliteStorage } from "parlance-tms/storage/node-sqlite";',
      'import { createPostgresStorage } from "parlance-tms/storage/postgres";',
      'import { createFixedClock, runRateLimiterContracts, runStorageContracts } from "parlance-tms/testing";',
      'import { DatabaseSync } from "node:sqlite";',
      "const storage = createNodeSqliteStorage(new DatabaseSync(':memory:'));",
      "const parlance = createParlance({ storage, clock: createFixedClock(), hasher: runtimeHasher });",
      "const core = createCore({ storage: createMemoryStorage(), queue: createPQueueJobQueue(), clock: systemClock,",
      "  rateLimiter: await createMemoryRateLimiter(null, systemClock), hasher: runtimeHasher });",
      "const handler: (r: Request) => Promise<Response> = createFetchHandler(core);",
      "parlance.on('job.failed', (e: ParlanceEvents['job.failed']) => console.log(e.message));",
      "export { createPostgresRateLimiter, createPostgresStorage, handler, parlancePlugin, runRateLimiterContracts, runStorageContracts };",
    ].join("\n"),
  );
  writeFileSync(
    join(consumer.dir, "node-only", "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        lib: ["ES2023", "DOM"],
        types: ["node"],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      include: ["check.ts"],
    }),
  );
  const tsc = join(consumer.dir, "node_modules", ".bin", "tsc");
  const result = await inConsumer([tsc, "-p", "node-only"]);
  const failing = result.stdout
    .split("\n")
    .filter((line) => /\): error TS/.test(line) && !line.startsWith("node_modules/elysia/"));
  expect(failing).toEqual([]);
}, 120_000);

describe.each(RUNTIMES)("under %s", (runtime) => {
  test("the README's embedding example runs as printed", async () => {
    expect(readmeExample().trimEnd().split("\n")).toHaveLength(10);
    const out = succeeded(await inConsumer(script(runtime, "readme-example.ts")));
    expect(out).toContain("Bienvenue");
    // The base pushed first, French is complete: no example that looks broken.
    expect(out).toContain("coveragePercent: 100");
    expect(out).not.toContain("coveragePercent: 0");
  }, 60_000);

  test("the core script pushes, pulls and reads coverage on memory storage", async () => {
    const out = succeeded(await inConsumer(script(runtime, "core-script.ts")));
    expect(out).toContain("web-shop.fr.yaml");
    expect(out).toContain('"cart.title": "Panier"');
    expect(out).toContain("fr: 50% (1 missing)");
  }, 60_000);

  const sqlite = runtime === "bun" ? "bun:sqlite" : "node:sqlite";
  test(`the core script runs on ${sqlite}`, async () => {
    const out = succeeded(await inConsumer(script(runtime, "core-script.ts", sqlite)));
    expect(out).toContain("fr: 50% (1 missing)");
  }, 60_000);

  test("the core script runs on Postgres", async () => {
    const schema = await createTestSchema();
    schemas.push(schema);
    const url = `${POSTGRES_URL}?search_path=${schema.name}`;
    const out = succeeded(await inConsumer(script(runtime, "core-script.ts", url)));
    expect(out).toContain("fr: 50% (1 missing)");
  }, 60_000);

  test("the imaginary app's own tests pass with the memory adapters and the fixed clock", async () => {
    succeeded(await inConsumer(testFile(runtime, "app-translations.test.ts")));
  }, 60_000);

  test("the toy third-party adapter passes the published contract suite", async () => {
    const result = await inConsumer(testFile(runtime, "toy-adapter.test.ts"));
    succeeded(result);
    expect(`${result.stdout}${result.stderr}`).toContain("counting storage › JobStore › ");
  }, 60_000);

  for (const example of SERVER_EXAMPLES.filter((e) => e.runtimes.includes(runtime))) {
    test(`${example.file} serves the API beside the app's own routes`, async () => {
      const out = succeeded(await inConsumer(script(runtime, example.file)));
      expect(out).toContain(`GET / → 200 ${example.home}`);
      expect(out).toContain(`GET ${example.prefix}/healthz → 200 {"status":"ok"}`);
      expect(out).toContain(
        `GET ${example.prefix}/api/v1/projects → 401 {"error":"Missing Authorization header`,
      );
      if (example.file === "elysia-mount.ts") {
        // The host's own auth guards its own route, and the API's key admits its caller.
        expect(out).toContain("GET /dashboard → 401 sign in first");
        expect(out).toContain("GET /dashboard → 200 your dashboard");
        expect(out).toMatch(/GET \/i18n\/api\/v1\/projects → 200 \{"success":true,"data":\[\{"id":/);
      }
    }, 60_000);
  }

  test("the Bun-only pieces say so: the bun:sqlite entry elsewhere, and the parlance command", async () => {
    const probe = join(consumer.dir, `bun-only-${runtime}.mjs`);
    writeFileSync(
      probe,
      [
        "try {",
        '  const { createSqliteStorage } = await import("parlance-tms/storage/bun-sqlite");',
        "  console.log('loaded', typeof createSqliteStorage);",
        "} catch (e) { console.log('refused:', e.message); }",
      ].join("\n"),
    );
    const out = succeeded(await inConsumer(script(runtime, probe))).trim();
    if (runtime === "bun") expect(out).toBe("loaded function");
    else {
      expect(out).toStartWith("refused: parlance-tms/storage/bun-sqlite runs on Bun only");
      expect(out).toContain("parlance-tms/storage/node-sqlite");
    }
    if (runtime === "bun") return;
    const bin = join(consumer.dir, "node_modules", "parlance-tms", "dist", "lib", "bin.js");
    const cli = await inConsumer(script(runtime, bin, "help"));
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toStartWith("parlance: the command line runs on Bun only");
  }, 60_000);

  test("deep imports and files outside the exports map are refused", async () => {
    const probe = join(consumer.dir, `deep-import-${runtime}.mjs`);
    writeFileSync(
      probe,
      [
        'for (const spec of ["parlance-tms/core/push.ts", "parlance-tms/dist/lib/index.js", "parlance-tms/package.json"]) {',
        "  try { await import(spec); console.log('imported', spec); } catch { console.log('refused', spec); }",
        "}",
        'const root = await import("parlance-tms");',
        'console.log(typeof root.createParlance === "function" ? "root ok" : "root broken");',
      ].join("\n"),
    );
    const out = succeeded(await inConsumer(script(runtime, probe)));
    expect(out.trim().split("\n")).toEqual([
      "refused parlance-tms/core/push.ts",
      "refused parlance-tms/dist/lib/index.js",
      // Bun resolves `<package>/package.json` whatever the exports map says; Node and Deno refuse it.
      `${runtime === "bun" ? "imported" : "refused"} parlance-tms/package.json`,
      "root ok",
    ]);
  }, 60_000);
});

test("the published suite fails a broken third-party adapter with names that say what is broken", async () => {
  writeFileSync(
    join(consumer.dir, "broken-adapter.test.ts"),
    [
      'import { test } from "node:test";',
      'import { createMemoryStorage } from "parlance-tms/storage/memory";',
      'import { runStorageContracts } from "parlance-tms/testing";',
      'runStorageContracts("broken", async () => {',
      "  const storage = createMemoryStorage();",
      "  // The planted fault: deactivating a key changes nothing.",
      "  const keys = { ...storage.keys, deactivate: (id: string) => storage.keys.get(id) };",
      "  return { storage: { ...storage, keys }, teardown: () => storage.close() };",
      "}, test);",
    ].join("\n"),
  );
  const result = await inConsumer(testFile("node", "broken-adapter.test.ts"));
  expect(result.code).not.toBe(0);
  const failures = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("not ok") || line.includes("✖"));
  expect(failures.join("\n")).toContain(
    "broken › KeyStore › deactivate returns the updated key; null when absent",
  );
  expect(result.stdout).toMatch(/fail 1\b/);
}, 60_000);

test("the published suite takes Deno.test itself, sanitizers on", async () => {
  writeFileSync(
    join(consumer.dir, "deno-native.test.ts"),
    [
      'import { runStorageContracts } from "parlance-tms/testing";',
      'import { createCountingStorage } from "./toy-adapter.ts";',
      'runStorageContracts("deno native", async () => {',
      "  const storage = createCountingStorage();",
      "  return { storage, teardown: () => storage.close() };",
      "}, Deno.test);",
    ].join("\n"),
  );
  const result = await inConsumer([DENO, "test", "-A", "--no-check", "deno-native.test.ts"]);
  succeeded(result);
  expect(result.stdout).toContain(
    "deno native › KeyStore › deactivate returns the updated key; null when absent",
  );
  expect(result.stdout).toMatch(/ok \| \d+ passed \| 0 failed/);
}, 60_000);

test("the published suite runs under vitest too", async () => {
  writeFileSync(
    join(consumer.dir, "vitest-toy.test.ts"),
    [
      'import { test } from "vitest";',
      'import { runStorageContracts } from "parlance-tms/testing";',
      'import { createCountingStorage } from "./toy-adapter.ts";',
      'runStorageContracts("vitest toy", async () => {',
      "  const storage = createCountingStorage();",
      "  return { storage, teardown: () => storage.close() };",
      "}, test);",
    ].join("\n"),
  );
  const vitest = join(consumer.dir, "node_modules", ".bin", "vitest");
  const result = await inConsumer([vitest, "run", "--reporter=verbose", "vitest-toy"]);
  succeeded(result);
  expect(result.stdout).toContain(
    "vitest toy › KeyStore › deactivate returns the updated key; null when absent",
  );
  // With a failure the line reads "Tests  1 failed | 108 passed (109)".
  expect(result.stdout).toMatch(/Tests\s+\d+ passed \(\d+\)/);
}, 120_000);

test("the docs viewer is inside the package: users install neither swagger-ui-dist nor its postinstall", async () => {
  const modules = join(consumer.dir, "node_modules");
  expect(readdirSync(modules)).not.toContain("swagger-ui-dist");
  expect(readdirSync(modules)).not.toContain("@scarf");
  writeFileSync(
    join(consumer.dir, "docs-probe.mjs"),
    [
      'import { createParlance } from "parlance-tms";',
      'import { createFetchHandler } from "parlance-tms/server";',
      'import { createMemoryStorage } from "parlance-tms/storage/memory";',
      "const parlance = createParlance({ storage: createMemoryStorage() });",
      "const api = createFetchHandler(parlance);",
      'for (const path of ["/api/v1/docs", "/api/v1/docs/swagger-ui-bundle.js", "/api/v1/docs/swagger-ui.css"]) {',
      '  const res = await api(new Request("http://localhost" + path));',
      "  console.log(path, res.status, (await res.arrayBuffer()).byteLength);",
      "}",
      "await parlance.close();",
    ].join("\n"),
  );
  const viewer = join(REPO, "node_modules", "swagger-ui-dist");
  for (const runtime of RUNTIMES) {
    const out = succeeded(await inConsumer(script(runtime, "docs-probe.mjs")))
      .trim()
      .split("\n");
    expect(out[0], runtime).toMatch(/^\/api\/v1\/docs 200 \d+$/);
    expect(out[1], runtime).toBe(
      `/api/v1/docs/swagger-ui-bundle.js 200 ${statSync(join(viewer, "swagger-ui-bundle.js")).size}`,
    );
    expect(out[2], runtime).toBe(
      `/api/v1/docs/swagger-ui.css 200 ${statSync(join(viewer, "swagger-ui.css")).size}`,
    );
  }
}, 120_000);

test("the published RateLimiter suite passes the memory limiter under node:test", async () => {
  writeFileSync(
    join(consumer.dir, "rate-limiter.test.ts"),
    [
      'import { test } from "node:test";',
      'import { createFixedClock, runRateLimiterContracts } from "parlance-tms/testing";',
      'import { createMemoryRateLimiter } from "parlance-tms/rate-limiter";',
      'runRateLimiterContracts("memory", async () => ({',
      "  limiter: await createMemoryRateLimiter(null, createFixedClock()),",
      "  teardown: async () => {},",
      "}), test);",
    ].join("\n"),
  );
  const result = await inConsumer(testFile("node", "rate-limiter.test.ts"));
  expect(result.stdout).toContain("memory › RateLimiter › 2L racing requests on one bucket");
  expect(result.stdout).toMatch(/fail 0\b/);
  expect(result.code).toBe(0);
}, 60_000);

test("the parlance command runs from the installed package under Bun (its only runtime)", async () => {
  const bin = join(consumer.dir, "node_modules", ".bin", "parlance");
  expect(succeeded(await inConsumer([bin, "help"]))).toContain("usage: parlance <command>");
  // `admin` refuses in-memory stores (nothing could ever be administered); org create makes the file.
  const store = `PARLANCE_DATABASE_URL=sqlite:${join(consumer.dir, "data", "cli.sqlite")}`;
  const created = succeeded(
    await run(["env", store, bin, "admin", "org", "create", "--name", "Acme"], consumer.dir),
  );
  expect(JSON.parse(created)).toMatchObject({ name: "Acme" });
}, 60_000);

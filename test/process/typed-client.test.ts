import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/harness.ts";
import { REPO } from "../support/process.ts";

/**
 * A typed client as a third party makes one: openapi-typescript turns the served document into
 * types, the consumer's own tsc --strict compiles an openapi-fetch client against them, and the
 * client then talks to a real HTTP server. The consumer has its own package.json (its TypeScript 5
 * is what openapi-typescript needs), installed here from its lockfile: a root postinstall would also
 * run in every project that installs the published package.
 */
const CONSUMER = join(REPO, "test", "consumer");
const BIN = join(CONSUMER, "node_modules", ".bin");

/** What test/consumer/client.ts returns, as far as this test reads it. */
type ConsumerRun = (
  baseUrl: string,
  key: string,
  projectId: string,
) => Promise<{
  whoami: { name: string; organization: { id: string } };
  projects: { id: string }[];
  preview: object;
  accepted: { jobId: string };
  location: string | null;
  job: object;
  pulled: Record<string, string>;
  coverage: { locales: { language: string }[] };
  keys: { name: string }[];
  created: { key: string };
  refused: { error: string };
}>;

let s: TestServer;
let server: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  await run(["bun", "install", "--frozen-lockfile", "--silent"]);
  s = await startTestServer("sqlite");
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => s.app.handle(request) });
});
afterAll(async () => {
  await server?.stop(true);
  await s?.close();
});

async function run(command: string[]): Promise<string> {
  const proc = Bun.spawn(command, { cwd: CONSUMER, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ command: command.join(" "), code, output: code === 0 ? "" : out + err }).toEqual({
    command: command.join(" "),
    code: 0,
    output: "",
  });
  return out + err;
}

test("openapi-typescript types compile under tsc --strict, and the openapi-fetch client works", async () => {
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const document = await (await fetch(`${baseUrl}/api/v1/openapi.json`)).text();
  mkdirSync(join(CONSUMER, "generated"), { recursive: true });
  writeFileSync(join(CONSUMER, "generated", "openapi.json"), document);
  await run([join(BIN, "openapi-typescript"), "generated/openapi.json", "-o", "generated/parlance.d.ts"]);
  await run([join(BIN, "tsc"), "-p", "tsconfig.json"]);

  const { orgId, project, key } = await s.seed.world();
  // Not a static import: the root's type-check must not depend on the generated file.
  const { run: client } = (await import(join(CONSUMER, "client.ts"))) as { run: ConsumerRun };
  const outcome = await client(baseUrl, key.key, project.id);
  expect(outcome.whoami).toMatchObject({ name: key.name, organization: { id: orgId } });
  expect(outcome.projects.map((p) => p.id)).toEqual([project.id]);
  expect(outcome.preview).toMatchObject({ dryRun: true, rowCount: 2, toCreate: 2 });
  expect(outcome.location).toBe(`/api/v1/jobs/${outcome.accepted.jobId}`);
  expect(outcome.job).toMatchObject({ status: "completed", summary: { created: 2, updated: 0 } });
  expect(outcome.pulled).toEqual({ "home.body": "Bonjour", "home.title": "Bienvenue" });
  expect(outcome.coverage.locales.map((l) => l.language)).toEqual(["en", "de", "fr"]);
  expect(outcome.keys.map((k) => k.name)).toContain(key.name);
  expect(outcome.created.key).toMatch(/^pl_[0-9a-f]{64}$/);
  expect(outcome.refused.error.length).toBeGreaterThan(0);
}, 120_000);

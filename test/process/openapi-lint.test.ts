import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildDocument } from "../../server/openapi/document.ts";
import { startTestServer, type TestServer } from "../support/harness.ts";
import { REPO, tempDir } from "../support/process.ts";

/**
 * `@redocly/cli lint` with its recommended rules passes on the document the server serves. It
 * runs offline: no telemetry, no update check, and (where the machine allows it, as root in CI)
 * inside a network namespace of its own with no network at all.
 */
const REDOCLY = join(REPO, "node_modules", "@redocly", "cli", "bin", "cli.js");
const CONFIG = join(REPO, "test", "support", "redocly.yaml");
const OFFLINE_ENV = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
  DO_NOT_TRACK: "1",
};

let s: TestServer;
const dir = tempDir("parlance-lint-");
beforeAll(async () => {
  s = await startTestServer("memory");
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const noNetwork = Bun.spawnSync(["unshare", "--net", "true"]).exitCode === 0;

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

async function lint(document: unknown): Promise<LintReport> {
  const file = join(dir, `openapi-${crypto.randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(document));
  const command = [process.execPath, REDOCLY, "lint", "--config", CONFIG, "--format", "json", file];
  const proc = Bun.spawn(noNetwork ? ["unshare", "--net", ...command] : command, {
    env: { ...process.env, ...OFFLINE_ENV },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  try {
    return JSON.parse(out) as LintReport;
  } catch {
    throw new Error(`redocly printed no report:\n${out}\n${err}`);
  }
}

test("the served document passes the recommended rules with no error and no warning", async () => {
  const res = await s.request("/api/v1/openapi.json");
  const report = await lint(await res.json());
  const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 60_000);

test("the workspace's document passes the same rules with no error and no warning", async () => {
  const res = await s.app.handle(new Request("http://localhost/api/workspace/openapi.json"));
  const report = await lint(await res.json());
  const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 60_000);

test("the lint does find problems: a document without a license and with an empty operation fails", async () => {
  const broken = buildDocument(s.app) as { info: { license?: unknown }; paths: Record<string, unknown> };
  delete broken.info.license;
  broken.paths["/api/v1/broken"] = { get: { responses: {} } };
  const report = await lint(broken);
  const rules = report.problems.map((p) => p.ruleId);
  expect(rules).toEqual(expect.arrayContaining(["info-license", "operation-4xx-response"]));
}, 60_000);

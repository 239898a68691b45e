/**
 * Issue 14: `parlance pull --nested` nests the server's flat JSON on the client (core/unflatten.ts),
 * while `/api/v1/pull` stays flat. The real command against a real server process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  admin,
  bootstrapKey,
  bootstrapOrg,
  runCli,
  type ServerProcess,
  startSqliteServerProcess,
  stopServerProcess,
  tempDir,
} from "../support/process.ts";

let server: ServerProcess;
let db: { PARLANCE_DATABASE_URL: string };
let env: Record<string, string>;
let project: string;

/** Flat keys where one is the parent of others, an array, and a plain nested object. */
const FLAT = {
  "home.title": "Bienvenue",
  "home.title.short": "Salut",
  "menu.0": "Fichier",
  "menu.1": "Édition",
  "nav.back": "Retour",
};

beforeAll(async () => {
  ({ server, db } = await startSqliteServerProcess());
  env = { PARLANCE_BASE_URL: server.baseUrl, PARLANCE_API_KEY: bootstrapKey(server.stderr()) as string };
  const created = await admin<{ id: string }>(
    [
      "project",
      "create",
      "--org",
      bootstrapOrg(server.stderr()) as string,
      "--name",
      "Nested App",
      "--base",
      "en",
      "--languages",
      "fr,de",
    ],
    db,
  );
  project = created.id;
  const cwd = tempDir();
  writeFileSync(join(cwd, "fr.json"), JSON.stringify(FLAT));
  const pushed = await runCli(
    ["push", "--project", project, "--language", "fr", "--file", "fr.json"],
    env,
    cwd,
  );
  expect(pushed.code).toBe(0);
});

afterAll(() => stopServerProcess(server));

const NESTED_TEXT = `{
  "home": {
    "title": "Bienvenue",
    "title.short": "Salut"
  },
  "menu": [
    "Fichier",
    "Édition"
  ],
  "nav": {
    "back": "Retour"
  }
}
`;

describe("pull --nested", () => {
  test("writes nested JSON under the server's file name; the API still answers flat", async () => {
    const cwd = tempDir();
    const r = await runCli(["pull", "--project", project, "--language", "fr", "--nested"], env, cwd);
    expect(r.code).toBe(0);
    expect(readdirSync(cwd)).toEqual(["nested-app.fr.json"]);
    expect(readFileSync(join(cwd, "nested-app.fr.json"), "utf8")).toBe(NESTED_TEXT);
    const api = await fetch(`${server.baseUrl}/api/v1/pull?project_id=${project}&language=fr`, {
      headers: { authorization: `Bearer ${env.PARLANCE_API_KEY}` },
    });
    expect(await api.json()).toEqual(FLAT);
  });

  test("to stdout with --out -, and with --format json", async () => {
    const r = await runCli(
      ["pull", "--project", project, "--language", "fr", "--format", "json", "--nested", "--out", "-"],
      env,
      tempDir(),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(NESTED_TEXT);
  });

  test("pushing the nested file into another language gives the same flat export", async () => {
    const cwd = tempDir();
    await runCli(
      ["pull", "--project", project, "--language", "fr", "--nested", "--out", "nested.json"],
      env,
      cwd,
    );
    const pushed = await runCli(
      ["push", "--project", project, "--language", "de", "--file", "nested.json"],
      env,
      cwd,
    );
    expect(pushed.code).toBe(0);
    const flat = await runCli(["pull", "--project", project, "--language", "de", "--out", "-"], env, cwd);
    expect(JSON.parse(flat.stdout)).toEqual(FLAT);
  });

  test("--nested with another format is a usage mistake (exit 2), before any request", async () => {
    const cwd = tempDir();
    const r = await runCli(
      ["pull", "--project", project, "--language", "fr", "--format", "csv", "--nested"],
      { PARLANCE_BASE_URL: "http://127.0.0.1:9", PARLANCE_API_KEY: env.PARLANCE_API_KEY as string },
      cwd,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("parlance: --nested applies to JSON only (got --format csv)\n");
    expect(readdirSync(cwd)).toEqual([]);
  });
});

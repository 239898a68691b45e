import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { POSTGRES_URL, postgresReachable } from "../storage/postgres-setup.ts";
import { expectDocsServed } from "../support/docs.ts";
import { admin, bootstrapKey, bootstrapOrg, REPO, startServerProcess, tempDir } from "../support/process.ts";
import { raw } from "../support/raw-http.ts";
import { expectStreamedFiles, pushOverHttp } from "../support/streamed-files.ts";
import { expectWorkspaceServed } from "../support/workspace-page.ts";
import { worldNames } from "../support/world-names.ts";

/** CONTRACT §1: `bun run start:deno` serves the same API under Deno (node:sqlite, postgres). */
// The binary itself, not node_modules/.bin/deno: that wrapper does not forward signals, so a
// SIGTERM would stop the wrapper and leave Deno serving.
const DENO = join(REPO, "node_modules", "deno", "deno");
// --unstable-raw-imports: the docs viewer's files are imported as text (server/openapi/viewer-assets.ts).
const START_DENO = [
  DENO,
  "run",
  "--allow-all",
  "--node-modules-dir=manual",
  "--unstable-raw-imports",
  join(REPO, "server", "deno.ts"),
];

/** The setup link and sign-in: argon2id through hash-wasm, Deno having no Bun.password. */
async function firstOwnerSignsIn(baseUrl: string, stderr: string): Promise<void> {
  const token = /\/setup#([0-9a-f]{64})/.exec(stderr)?.[1];
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  const headers = { origin: baseUrl, "content-type": "application/json" };
  const account = { email: "owner@example.com", password: "a long enough passphrase" };
  const setup = await fetch(`${baseUrl}/api/workspace/setup`, {
    method: "POST",
    headers,
    body: JSON.stringify({ token, name: "Owner", ...account }),
  });
  expect(setup.status).toBe(201);
  const signIn = await fetch(`${baseUrl}/api/workspace/session`, {
    method: "POST",
    headers,
    body: JSON.stringify(account),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const me = await fetch(`${baseUrl}/api/workspace/me`, { headers: { cookie } });
  expect(((await me.json()) as { data: { user: { email: string } } }).data.user.email).toBe(account.email);
  // A short Host, as nginx sends for `proxy_pass http://tms;`: routed by the request's own path.
  const port = Number(new URL(baseUrl).port);
  const viaProxy = await raw(port, [
    "GET /api/workspace/me HTTP/1.1",
    "Host: tms",
    `Cookie: ${cookie}`,
    "Connection: close",
  ]);
  expect(viaProxy.status).toBe(200);
  expect(viaProxy.body).toContain(account.email);
  const wrong = await fetch(`${baseUrl}/api/workspace/session`, {
    method: "POST",
    headers,
    body: JSON.stringify({ ...account, password: "not the passphrase" }),
  });
  expect(wrong.status).toBe(401);
}

async function roundTrip(env: Record<string, string>): Promise<void> {
  const server = await startServerProcess(env, REPO, START_DENO);
  try {
    const key = bootstrapKey(server.stderr()) as string;
    const orgId = bootstrapOrg(server.stderr()) as string;
    expect(key).toMatch(/^pl_[0-9a-f]{64}$/);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    const project = await admin<{ id: string }>(
      ["project", "create", "--org", orgId, "--name", "Under Deno", "--base", "en", "--languages", "fr"],
      env,
    );
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const push = await fetch(`${server.baseUrl}/api/v1/push`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        projectId: project.id,
        language: "fr",
        content: '{"home":{"title":"Bienvenue"}}',
      }),
    });
    expect(push.status).toBe(202);
    const { jobId } = (await push.json()) as { jobId: string };
    let status = "pending";
    for (let i = 0; i < 100 && (status === "pending" || status === "running"); i++) {
      await Bun.sleep(50);
      const job = (await (
        await fetch(`${server.baseUrl}/api/v1/jobs/${jobId}`, { headers: auth })
      ).json()) as { data: { status: string } };
      status = job.data.status;
    }
    expect(status).toBe("completed");
    // A short Host, as nginx sends for `proxy_pass http://tms;`: routed by the request's own path.
    const port = Number(new URL(server.baseUrl).port);
    const target = `/api/v1/jobs/${jobId}`;
    const viaProxy = await raw(port, [
      `GET ${target} HTTP/1.1`,
      "Host: tms",
      `Authorization: Bearer ${key}`,
      "Connection: close",
    ]);
    expect(viaProxy.status).toBe(200);
    expect(JSON.parse(viaProxy.body).data.status).toBe("completed");
    const pulled = await fetch(`${server.baseUrl}/api/v1/pull?project_id=${project.id}&language=fr`, {
      headers: auth,
    });
    expect(pulled.headers.get("content-disposition")).toBe('attachment; filename="under-deno.fr.json"');
    expect(await pulled.json()).toEqual({ "home.title": "Bienvenue" });
    // XLIFF reads the base language too, on SQLite page by page on a connection of its own.
    const xliff = await fetch(
      `${server.baseUrl}/api/v1/pull?project_id=${project.id}&language=fr&format=xliff`,
      {
        headers: auth,
      },
    );
    expect(xliff.status).toBe(200);
    expect(await xliff.text()).toContain('<trans-unit id="home.title"');
    // Files of several pieces: Deno's listener is given each piece encoded (server/file-body.ts).
    const world = await admin<{ id: string }>(
      ["project", "create", "--org", orgId, "--name", "World Names", "--base", "en", "--languages", "fr"],
      env,
    );
    const { en, fr } = await worldNames();
    await pushOverHttp(server.baseUrl, key, { projectId: world.id, language: "en", content: en });
    await pushOverHttp(server.baseUrl, key, { projectId: world.id, language: "fr", content: fr });
    const view = { id: world.id, name: "World Names", baseLanguage: "en", languages: ["en", "fr"] };
    await expectStreamedFiles(server.baseUrl, key, view, en, fr, "approved");
    const anonymous = await fetch(`${server.baseUrl}/api/v1/test`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("1000");
    await expectDocsServed(server.baseUrl);
    await expectWorkspaceServed(server.baseUrl);
    await firstOwnerSignsIn(server.baseUrl, server.stderr());
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
}

const postgresUp = await postgresReachable();

describe("under Deno", () => {
  test("Deno is installed from the npm registry as a dev dependency", () => {
    expect(existsSync(DENO)).toBe(true);
  });

  test("serves the API on SQLite through node:sqlite", async () => {
    await roundTrip({ PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` });
  }, 60_000);

  if (postgresUp) {
    const dbName = `parlance_deno_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const server = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await server.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await server.end({ timeout: 5 });
      // DROP DATABASE waits for a checkpoint, which takes seconds on a busy shared cluster.
    }, 120_000);
    test("serves the API on Postgres through postgres", async () => {
      await server.unsafe(`CREATE DATABASE ${dbName}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${dbName}`;
      await roundTrip({ PARLANCE_DATABASE_URL: url.toString() });
    }, 60_000);
  }
});

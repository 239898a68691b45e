/**
 * Secrets never rest anywhere (issue 10): a key created over the API and an access token, used in
 * good and bad requests, appear neither in the server's output nor in the database (files, or every
 * table's rows); their SHA-256 hashes do, which proves the search looks in the right place.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { POSTGRES_URL, postgresReachable } from "../storage/postgres-setup.ts";
import { bootstrapKey, type ServerProcess, startServerProcess, tempDir } from "../support/process.ts";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Creates a key and a token through the API, then uses both, well and badly. */
async function exercise(server: ServerProcess): Promise<{ key: string; token: string }> {
  const boot = bootstrapKey(server.stderr()) as string;
  const call = (path: string, init: RequestInit = {}, bearer?: string) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...init.headers },
    });
  const created = await call(
    "/api/v1/api-keys",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"ci","scopes":["admin","translations:read"]}',
    },
    boot,
  );
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { key: string; id: string } };
  const key = data.key;
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const granted = await call(
    "/api/v1/auth/token",
    form({ grant_type: "client_credentials", client_secret: key }),
  );
  expect(granted.status).toBe(200);
  const token = ((await granted.json()) as { access_token: string }).access_token;

  const statuses: number[] = [];
  for (const [path, init, bearer] of [
    ["/api/v1/test", {}, key],
    ["/api/v1/test", {}, token],
    ["/api/v1/api-keys", {}, token],
    ["/api/v1/projects", {}, key],
    ["/api/v1/test", {}, `${key}x`],
    ["/api/v1/test", {}, `${token}x`],
    ["/api/v1/test", { headers: { authorization: `Basic ${btoa(`x:${key}`)}` } }, undefined],
    ["/api/v1/api-keys?offset=1e20", {}, key],
    [`/api/v1/nowhere?key=${key}`, {}, key],
    [
      "/api/v1/push",
      { method: "POST", headers: { "content-type": "application/json" }, body: `{"content":"${key}"` },
      key,
    ],
    [
      "/api/v1/auth/token",
      form({ grant_type: "client_credentials", client_secret: key, client_id: "nope" }),
      undefined,
    ],
    ["/api/v1/auth/token", form({ grant_type: "password", client_secret: key }), undefined],
    [
      "/api/v1/auth/token",
      form({ grant_type: "client_credentials" }, { authorization: `Basic ${btoa(`id:${key}`)}` }),
      undefined,
    ],
  ] as [string, RequestInit, string | undefined][]) {
    statuses.push((await call(path, init, bearer)).status);
  }
  expect(statuses.some((s) => s >= 500)).toBe(false);
  return { key, token };
}

async function stop(server: ServerProcess): Promise<string> {
  server.proc.kill("SIGTERM");
  await server.exited;
  const out = await new Response(server.proc.stdout).text();
  return `${out}\n${server.stderr()}`;
}

const withPostgres = await postgresReachable();

describe("secrets", () => {
  test("SQLite: neither the log nor the database files hold the key or the token", async () => {
    const dir = tempDir("parlance-secrets-");
    const server = await startServerProcess({
      PARLANCE_DATABASE_URL: `sqlite:${join(dir, "parlance.sqlite")}`,
      PARLANCE_ENV: "development",
    });
    const { key, token } = await exercise(server);
    const log = await stop(server);
    expect(log).not.toContain(key);
    expect(log).not.toContain(token);
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString("latin1"));
    const all = files.join("\n");
    expect(all).toContain(sha256(key));
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(3));
    expect(all).not.toContain(token);
  }, 60_000);

  if (withPostgres) {
    const dbName = `parlance_sec_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    }, 30_000);

    test("Postgres: neither the log nor any table holds the key or the token", async () => {
      await admin.unsafe(`CREATE DATABASE ${dbName}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${dbName}`;
      const server = await startServerProcess({
        PARLANCE_DATABASE_URL: url.toString(),
        PARLANCE_ENV: "development",
      });
      const { key, token } = await exercise(server);
      const log = await stop(server);
      expect(log).not.toContain(key);
      expect(log).not.toContain(token);
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        const tables = await db<{ schema: string; name: string }[]>`
          SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`;
        let dump = "";
        for (const t of tables) {
          const rows = await db.unsafe(`SELECT t::text AS row FROM "${t.schema}"."${t.name}" t`);
          dump += rows.map((r) => r.row).join("\n");
        }
        expect(dump).toContain(sha256(key));
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(key.slice(3));
        expect(dump).not.toContain(token);
      } finally {
        await db.end({ timeout: 5 });
      }
    }, 60_000);
  }
});

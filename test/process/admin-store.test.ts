/**
 * Issue 14: operator commands that cannot mislead. Each says which store it used; none but
 * `org create` starts a new database; in-memory stores are refused; organizations and projects
 * can be listed. The real `parlance` command, run as a process from unrelated folders.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { POSTGRES_URL, postgresReachable } from "../storage/postgres-setup.ts";
import { admin, runCli, tempDir } from "../support/process.ts";

const sqlite = (path: string) => ({ PARLANCE_DATABASE_URL: `sqlite:${path}` });
const unset = { PARLANCE_DATABASE_URL: "" };
const UUID = "00000000-0000-4000-8000-000000000000";

/** Every operator command but `org create`, with options that pass the command line's checks. */
const NON_CREATING = [
  ["org", "list"],
  ["project", "create", "--org", UUID, "--name", "W", "--base", "en"],
  ["project", "list"],
  ["project", "list", "--org", UUID],
  ["project", "add-language", "--project", UUID, "--language", "fr"],
  ["project", "delete", "--project", UUID],
  ["key", "create", "--org", UUID, "--name", "k", "--scopes", "admin"],
  ["key", "deactivate", "--id", UUID],
  ["quota", "set", "--org", UUID, "--max-translations", "5"],
  ["env", "set", "--project", UUID, "--env", "e", "--language", "fr", "--key", "k", "--value", "v"],
  ["translations", "list", "--project", UUID, "--language", "fr"],
];

describe("which store an operator command uses", () => {
  test("a success says the store on stderr: the scheme and the absolute path", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "elsewhere"));
    // A relative URL is resolved from the working folder, and said so.
    const r = await runCli(
      ["admin", "org", "create", "--name", "Acme"],
      { PARLANCE_DATABASE_URL: "sqlite:./db.sqlite" },
      join(dir, "elsewhere"),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.any(String), name: "Acme" });
    expect(r.stderr).toBe(`parlance: store sqlite:${join(dir, "elsewhere", "db.sqlite")}\n`);
  });

  test("without PARLANCE_DATABASE_URL, a missing default database is an error naming the path and the variable; nothing is created", async () => {
    const cwd = tempDir();
    for (const args of NON_CREATING) {
      const r = await runCli(["admin", ...args], unset, cwd);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`No database at ${join(cwd, "data", "parlance.sqlite")}`);
      expect(r.stderr).toContain("PARLANCE_DATABASE_URL is unset");
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  test("with PARLANCE_DATABASE_URL naming a missing file, the error names it; nothing is created", async () => {
    const dir = tempDir();
    const path = join(dir, "missing", "db.sqlite");
    const r = await runCli(["admin", "project", "list"], sqlite(path), tempDir());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`No database at ${path} (PARLANCE_DATABASE_URL=sqlite:${path})`);
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });

  test("org create starts a new database; the other commands then find it", async () => {
    const path = join(tempDir(), "new", "db.sqlite");
    const org = await admin<{ id: string }>(["org", "create", "--name", "First"], sqlite(path));
    expect(existsSync(path)).toBe(true);
    const listed = await runCli(["admin", "project", "list", "--org", org.id], sqlite(path), tempDir());
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stderr).toBe(`parlance: store sqlite:${path}\n`);
  });

  test("in-memory stores are refused with the reason, before anything runs", async () => {
    for (const url of ["memory:", "sqlite::memory:"]) {
      for (const args of [
        ["org", "create", "--name", "A"],
        ["org", "list"],
      ]) {
        const r = await runCli(["admin", ...args], { PARLANCE_DATABASE_URL: url }, tempDir());
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toContain(`in-memory store (PARLANCE_DATABASE_URL=${url})`);
        expect(r.stderr).toContain("inside the server's process");
      }
    }
  });
});

test("a store that cannot be opened is named in the one-line error, without the password", async () => {
  const r = await runCli(
    ["admin", "org", "list"],
    { PARLANCE_DATABASE_URL: "postgres://someone:pa55word@127.0.0.1:1/nowhere?password=pa55word" },
    tempDir(),
  );
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("(store postgres://someone@127.0.0.1:1/nowhere)");
  expect(r.stderr).not.toContain("pa55word");
});

describe("admin org list and admin project list", () => {
  test("one JSON document each: organizations and non-deleted projects by name, --org filters", async () => {
    const env = sqlite(join(tempDir(), "db.sqlite"));
    const zeta = await admin<{ id: string }>(["org", "create", "--name", "Zeta"], env);
    const acme = await admin<{ id: string }>(["org", "create", "--name", "Acme"], env);
    await admin(["quota", "set", "--org", zeta.id, "--max-translations", "10"], env);
    expect(await admin<unknown[]>(["org", "list"], env)).toEqual([
      { id: acme.id, name: "Acme", maxTranslations: null, createdAt: expect.any(String) },
      { id: zeta.id, name: "Zeta", maxTranslations: 10, createdAt: expect.any(String) },
    ]);

    const create = (org: string, name: string, languages: string) =>
      admin<{ id: string }>(
        ["project", "create", "--org", org, "--name", name, "--base", "en", "--languages", languages],
        env,
      );
    const web = await create(acme.id, "Web", "fr");
    const app = await create(zeta.id, "App", "de,fr");
    const gone = await create(acme.id, "Gone", "fr");
    await admin(["project", "delete", "--project", gone.id], env);

    expect(await admin<unknown[]>(["project", "list"], env)).toEqual([
      { id: app.id, name: "App", baseLanguage: "en", languages: ["en", "de", "fr"], orgId: zeta.id },
      { id: web.id, name: "Web", baseLanguage: "en", languages: ["en", "fr"], orgId: acme.id },
    ]);
    expect(await admin<unknown[]>(["project", "list", "--org", acme.id], env)).toEqual([
      { id: web.id, name: "Web", baseLanguage: "en", languages: ["en", "fr"], orgId: acme.id },
    ]);
  });

  test("an unknown organization is an error, not an empty list", async () => {
    const env = sqlite(join(tempDir(), "db.sqlite"));
    await admin(["org", "create", "--name", "Acme"], env);
    const r = await runCli(["admin", "project", "list", "--org", UUID], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Organization ${UUID} not found`);
  });
});

if (await postgresReachable()) {
  describe("on Postgres", () => {
    const dbName = `parlance_admin_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const root = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await root.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await root.end({ timeout: 5 });
      // DROP DATABASE waits for a checkpoint, which takes seconds on a busy shared cluster.
    }, 120_000);

    test("a database without Parlance's tables is refused (not migrated); the store is said without its password", async () => {
      await root.unsafe(`CREATE DATABASE ${dbName}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${dbName}`;
      // The test cluster trusts local connections, so any password is accepted and must not show.
      url.password = "s3cret-pass";
      const env = { PARLANCE_DATABASE_URL: url.toString() };
      const shown = `postgres://${url.username}@${url.host}/${dbName}`;

      const refused = await runCli(["admin", "project", "list"], env, tempDir());
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`The database ${shown} holds no Parlance tables`);
      expect(refused.stderr).not.toContain("s3cret");
      const tables = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        const rows = await tables`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
        expect(rows.length).toBe(0);
      } finally {
        await tables.end({ timeout: 5 });
      }

      const created = await runCli(["admin", "org", "create", "--name", "Pg"], env, tempDir());
      expect(created.code).toBe(0);
      expect(created.stderr).toBe(`parlance: store ${shown}\n`);
      const listed = await runCli(["admin", "org", "list"], env, tempDir());
      expect(JSON.parse(listed.stdout)).toEqual([
        { id: expect.any(String), name: "Pg", maxTranslations: null, createdAt: expect.any(String) },
      ]);
    }, 30_000);
  });
}

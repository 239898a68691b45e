import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { admin, REPO, runCli, startServerProcess, tempDir } from "../support/process.ts";

const fresh = () => ({ PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` });
const dbPath = (env: { PARLANCE_DATABASE_URL: string }) => env.PARLANCE_DATABASE_URL.slice("sqlite:".length);

describe("operator commands (CONTRACT §2)", () => {
  test("each command prints exactly one JSON document of the contract's shape", async () => {
    const env = fresh();
    const org = await admin<{ id: string; name: string }>(["org", "create", "--name", "Acme"], env);
    expect(org).toEqual({ id: expect.any(String), name: "Acme" });

    const project = await admin(
      ["project", "create", "--org", org.id, "--name", "Web", "--base", "en", "--languages", "fr,de"],
      env,
    );
    expect(project).toEqual({
      id: expect.any(String),
      name: "Web",
      baseLanguage: "en",
      languages: ["en", "fr", "de"],
    });
    const pid = project.id as string;

    expect(await admin(["project", "add-language", "--project", pid, "--language", "pt-BR"], env)).toEqual({
      ...project,
      languages: ["en", "fr", "de", "pt-BR"],
    });

    const key = await admin(
      [
        "key",
        "create",
        "--org",
        org.id,
        "--name",
        "ci",
        "--scopes",
        "translations:read,export:read",
        "--rate-limit",
        "50",
      ],
      env,
    );
    expect(key).toEqual({
      id: expect.any(String),
      name: "ci",
      prefix: (key.key as string).slice(0, 9),
      scopes: ["translations:read", "export:read"],
      rateLimit: 50,
      usageCount: 0,
      active: true,
      expiresAt: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      key: expect.stringMatching(/^pl_[0-9a-f]{64}$/),
    });
    const deactivated = await admin(["key", "deactivate", "--id", key.id as string], env);
    expect(deactivated.active).toBe(false);
    expect(deactivated).not.toHaveProperty("key");

    expect(await admin(["quota", "set", "--org", org.id, "--max-translations", "100"], env)).toEqual({
      orgId: org.id,
      maxTranslations: 100,
    });
    expect(
      await admin(
        [
          "env",
          "set",
          "--project",
          pid,
          "--env",
          "staging",
          "--language",
          "fr",
          "--key",
          "a.b",
          "--value",
          "Salut",
        ],
        env,
      ),
    ).toEqual({
      projectId: pid,
      environment: "staging",
      language: "fr",
      key: "a.b",
      value: "Salut",
    });
    expect(
      await admin<unknown[]>(["translations", "list", "--project", pid, "--language", "fr"], env),
    ).toEqual([]);
    expect(await admin(["project", "delete", "--project", pid], env)).toEqual({ id: pid, deleted: true });
  });

  test("errors exit 1 with a one-line message naming the store on stderr, and nothing on stdout", async () => {
    const env = fresh();
    await admin(["org", "create", "--name", "Exists"], env);
    const cases = [
      ["project", "create", "--org", crypto.randomUUID(), "--name", "X", "--base", "en"],
      ["project", "create", "--org", "not-a-uuid", "--name", "X", "--base", "en"],
      [
        "key",
        "create",
        "--org",
        crypto.randomUUID(),
        "--name",
        "k",
        "--scopes",
        "admin",
        "--expires-at",
        "2001-01-01T00:00:00Z",
      ],
      ["project", "list", "--org", crypto.randomUUID()],
    ];
    for (const args of cases) {
      const r = await runCli(["admin", ...args], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEndWith(`(store ${env.PARLANCE_DATABASE_URL})`);
    }
  });

  // Changed with issue 14: a usage mistake now shows the usage after its one-line message.
  test("usage mistakes exit 2: the message on the first line, then the usage; no store is opened", async () => {
    const env = fresh();
    const cases: [string[], string, string][] = [
      [["org", "create"], "--name is required", "usage: parlance admin org create --name NAME"],
      [["org", "create", "--nme", "x"], "unknown option --nme", "usage: parlance admin org create"],
      [["org", "list", "extra"], 'unexpected argument "extra"', "usage: parlance admin org list"],
      [["nonsense", "verb"], 'unknown admin command "nonsense verb"', "  org list"],
      [["project"], "admin project needs an action: project create, project list", "  project list"],
      [["quota", "set", "--org", crypto.randomUUID()], "--max-translations is required", "quota set"],
    ];
    for (const [args, message, usage] of cases) {
      const r = await runCli(["admin", ...args], env);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.split("\n")[0]).toContain(message);
      expect(r.stderr).toContain(usage);
    }
    expect(existsSync(dbPath(env))).toBe(false);
  });

  test("malformed locale codes and past expiry are refused", async () => {
    const env = fresh();
    const org = await admin<{ id: string }>(["org", "create", "--name", "Acme"], env);
    const bad = await runCli(
      [
        "admin",
        "project",
        "create",
        "--org",
        org.id,
        "--name",
        "W",
        "--base",
        "english!",
        "--languages",
        "fr",
      ],
      env,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("locale");
    const past = await runCli(
      [
        "admin",
        "key",
        "create",
        "--org",
        org.id,
        "--name",
        "k",
        "--scopes",
        "admin",
        "--expires-at",
        "2001-01-01T00:00:00Z",
      ],
      env,
    );
    expect(past.code).not.toBe(0);
    expect(past.stderr).toContain("future");
    const project = await admin<{ id: string }>(
      ["project", "create", "--org", org.id, "--name", "W", "--base", "en"],
      env,
    );
    const lacking = await runCli(
      ["admin", "translations", "list", "--project", project.id, "--language", "fr"],
      env,
    );
    expect(lacking.code).not.toBe(0);
    expect(lacking.stderr).toContain("no language fr");
  });

  test("`bun run parlance admin …` works from the repository", async () => {
    const env = fresh();
    const proc = Bun.spawn(["bun", "run", "parlance", "admin", "org", "create", "--name", "ViaScript"], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(out)).toEqual({ id: expect.any(String), name: "ViaScript" });
  });

  test("an operator change takes effect on the running server's very next request", async () => {
    const env = { ...fresh(), PARLANCE_BOOTSTRAP: "0" };
    const org = await admin<{ id: string }>(["org", "create", "--name", "Live"], env);
    const key = await admin<{ id: string; key: string }>(
      ["key", "create", "--org", org.id, "--name", "k", "--scopes", "translations:read"],
      env,
    );
    const server = await startServerProcess(env);
    try {
      const auth = { headers: { authorization: `Bearer ${key.key}` } };
      expect((await fetch(`${server.baseUrl}/api/v1/projects`, auth)).status).toBe(200);
      const project = await admin<{ id: string }>(
        ["project", "create", "--org", org.id, "--name", "Fresh", "--base", "en"],
        env,
      );
      const listed = (await (await fetch(`${server.baseUrl}/api/v1/projects`, auth)).json()) as {
        data: { id: string }[];
      };
      expect(listed.data.map((p) => p.id)).toEqual([project.id]);
      await admin(["key", "deactivate", "--id", key.id], env);
      expect((await fetch(`${server.baseUrl}/api/v1/projects`, auth)).status).toBe(401);
    } finally {
      server.proc.kill("SIGTERM");
      await server.exited;
    }
  });
});

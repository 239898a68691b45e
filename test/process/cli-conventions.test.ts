/**
 * Issue 14: a command line that follows conventions. --help/-h and --version on every command and
 * sub-command, unknown flags refused with the usage (exit 2), a bare `parlance` that prints the
 * usage instead of serving, serve's --port/--host, and a first-start banner showing the command
 * as it was invoked. The real command, as a process.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN_COMMANDS } from "../../server/cli/admin.ts";
import {
  bootstrapOrg,
  CLI,
  REPO,
  runCli,
  type ServerProcess,
  startServerProcess,
  tempDir,
} from "../support/process.ts";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** Every command and sub-command, as the words that name it. */
const COMMANDS: string[][] = [
  [],
  ["serve"],
  ["admin"],
  ...ADMIN_COMMANDS.map((c) => ["admin", ...c.name.split(" ")]),
  ["pull"],
  ["push"],
  ["status"],
  ["whoami"],
  ["help"],
];

/**
 * Runs `run` over `items` four at a time: each command is a process start, mostly waiting, so a
 * loaded machine does not stretch fifty of them past the test's time.
 */
async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += 4)
    results.push(...(await Promise.all(items.slice(i, i + 4).map(run))));
  return results;
}

/** No store, no server: help and errors must not need one. */
const NOWHERE = { PARLANCE_DATABASE_URL: "sqlite:/nonexistent/parlance.sqlite", PORT: "1" };

describe("--help, -h and --version", () => {
  test("every command and sub-command prints its help on stdout, exit 0", async () => {
    const cases = COMMANDS.flatMap((words) => ["--help", "-h"].map((flag) => ({ words, flag })));
    const results = await inBatches(cases, ({ words, flag }) => runCli([...words, flag], NOWHERE, tempDir()));
    cases.forEach(({ words, flag }, i) => {
      const r = results[i] as Awaited<ReturnType<typeof runCli>>;
      expect(r.code, `${words.join(" ")} ${flag}`).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/usage: parlance /);
      const named = words.filter((w) => w !== "help").join(" ");
      if (words.length > 0 && named !== "") expect(r.stdout).toContain(`usage: parlance ${named}`);
    });
  }, 300_000);

  test("every command and sub-command prints the package's version, exit 0", async () => {
    const results = await inBatches(COMMANDS, (words) => runCli([...words, "--version"], NOWHERE, tempDir()));
    COMMANDS.forEach((words, i) => {
      const r = results[i] as Awaited<ReturnType<typeof runCli>>;
      expect(r.code, words.join(" ")).toBe(0);
      expect(r.stdout).toBe(`parlance ${VERSION}\n`);
    });
  }, 300_000);

  test("the lists show one line per command", async () => {
    const top = await runCli(["--help"], NOWHERE);
    for (const name of ["serve", "admin", "pull", "push", "status", "whoami", "help"])
      expect(top.stdout.split("\n").filter((l) => l.startsWith(`  ${name} `))).toHaveLength(1);
    const adminHelp = await runCli(["admin", "--help"], NOWHERE);
    for (const c of ADMIN_COMMANDS)
      expect(adminHelp.stdout.split("\n").filter((l) => l.startsWith(`  ${c.name}`))).toHaveLength(1);
    // `help <command>` is the same text as `<command> --help`.
    expect((await runCli(["help", "admin", "org", "list"], NOWHERE)).stdout).toBe(
      (await runCli(["admin", "org", "list", "--help"], NOWHERE)).stdout,
    );
  });

  test("help and version win over every other mistake on the line", async () => {
    const r = await runCli(["admin", "org", "create", "--bogus", "--help"], NOWHERE);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("usage: parlance admin org create --name NAME");
    // A flag's value that looks like a switch stays a value.
    const value = await runCli(["admin", "env", "set", "--value", "-h"], NOWHERE);
    expect(value.code).toBe(2);
    expect(value.stderr).toContain("--project is required");
  });
});

describe("mistakes", () => {
  test("a bare `parlance` prints the usage on stderr and exits 2; it starts no server", async () => {
    const r = await runCli([], NOWHERE);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no command given (parlance serve starts the server)");
    expect(r.stderr).toContain("usage: parlance <command>");
  });

  test("unknown flags are refused with the command's usage, exit 2, before anything runs", async () => {
    const cases: [string[], string][] = [
      [["serve"], "usage: parlance serve"],
      [["admin", "org", "list"], "usage: parlance admin org list"],
      [["admin", "project", "create"], "usage: parlance admin project create"],
      [["pull"], "usage: parlance pull"],
      [["push"], "usage: parlance push"],
      [["status"], "usage: parlance status"],
      [["whoami"], "usage: parlance whoami"],
    ];
    for (const [words, usage] of cases) {
      for (const flag of ["--bogus", "-x"]) {
        const r = await runCli([...words, flag], NOWHERE, tempDir());
        expect(r.code, `${words.join(" ")} ${flag}`).toBe(2);
        expect(r.stdout).toBe("");
        const [first, , ...rest] = r.stderr.split("\n");
        expect(first).toBe(`parlance: ${words.join(" ")}: unknown option ${flag}`);
        expect(rest.join("\n")).toStartWith(usage);
      }
    }
  }, 60_000);

  test("an unknown command shows the list of commands, exit 2", async () => {
    const r = await runCli(["serv"], NOWHERE);
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith('parlance: unknown command "serv"\n');
    expect(r.stderr).toContain("  serve ");
  });

  test("client verbs: a missing option shows the usage too; a missing server does not", async () => {
    const env = { PARLANCE_BASE_URL: "http://127.0.0.1:9", PARLANCE_API_KEY: `pl_${"0".repeat(64)}` };
    const missing = await runCli(["pull", "--project", crypto.randomUUID()], env, tempDir());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toStartWith("parlance: --language is required\n\nusage: parlance pull");
    const noServer = await runCli(["whoami"], { PARLANCE_BASE_URL: "", PARLANCE_API_KEY: "" }, tempDir());
    expect(noServer.code).toBe(2);
    expect(noServer.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("serve", () => {
  const stopped = async (s: ServerProcess) => {
    s.proc.kill("SIGTERM");
    await s.exited;
  };

  test("--port and --host win over PORT and PARLANCE_HOST", async () => {
    // PORT names a port that is taken: only the flag can make this start.
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const db = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
      const server = await startServerProcess(
        { ...db, PORT: String(busy.port), PARLANCE_HOST: "0.0.0.0" },
        REPO,
        ["bun", CLI, "serve", "--port", "0", "--host", "127.0.0.1"],
      );
      try {
        expect(server.stderr()).toContain('"host":"127.0.0.1"');
        expect(new URL(server.baseUrl).port).not.toBe(String(busy.port));
        expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
        expect(server.stderr()).toContain(`"version":"${VERSION}"`);
      } finally {
        await stopped(server);
      }
    } finally {
      busy.stop(true);
    }
  });

  test("a bad --port is a usage mistake", async () => {
    for (const port of ["abc", "70000", "-1", ""]) {
      const r = await runCli(["serve", `--port=${port}`], NOWHERE);
      expect(r.code, port).toBe(2);
      expect(r.stderr).toContain("--port");
    }
  });

  test("the first-start banner shows the command as it was invoked, with the organization's id", async () => {
    const cases: [string[], string][] = [
      [["bun", "run", "parlance", "serve"], "bun run parlance admin project create"],
      [["bun", "run", "start"], "bun run parlance admin project create"],
      [["bun", "server/cli.ts", "serve"], "bun server/cli.ts admin project create"],
    ];
    for (const [command, hint] of cases) {
      const db = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
      const server = await startServerProcess(db, REPO, command);
      try {
        const org = bootstrapOrg(server.stderr());
        expect(server.stderr()).toContain(`  ${hint} --org ${org} --name "My App" --base en --languages fr`);
      } finally {
        await stopped(server);
      }
    }
  }, 60_000);
});

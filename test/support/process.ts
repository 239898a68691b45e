/** Runs the real `parlance` command as a child process, the way an operator does. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const REPO = join(import.meta.dir, "..", "..");
export const CLI = join(REPO, "server", "cli.ts");

export const tempDir = (prefix = "parlance-") => mkdtempSync(join(tmpdir(), prefix));

/**
 * This process's environment as a user's shell would pass it: without the `npm_*` variables that
 * `bun run test` sets, which would tell the child a package script started it.
 */
export function shellEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_")));
}

export interface ServerProcess {
  baseUrl: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
}

/** Starts `parlance serve` (or another serving command) on a free port; resolves once it listens. */
export async function startServerProcess(
  env: Record<string, string>,
  cwd = REPO,
  command: string[] = ["bun", CLI, "serve"],
): Promise<ServerProcess> {
  const proc = Bun.spawn(command, {
    cwd,
    env: { ...shellEnv(), PORT: "0", PARLANCE_HOST: "127.0.0.1", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let err = "";
  const decoder = new TextDecoder();
  let resolvePort: (port: number) => void = () => {};
  const port = new Promise<number>((resolve) => {
    resolvePort = resolve;
  });
  (async () => {
    for await (const chunk of proc.stderr) {
      err += decoder.decode(chunk);
      const m = /"message":"listening".*?"port":(\d+)/.exec(err);
      if (m) resolvePort(Number(m[1]));
    }
  })();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 15_000),
  );
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(`server exited with ${code}:\n${err}`);
  });
  const p = await Promise.race([port, timeout, exitedEarly]);
  return { baseUrl: `http://127.0.0.1:${p}`, proc, stderr: () => err, exited: proc.exited };
}

/** A server process on a fresh SQLite file, and the store's environment (for `admin` commands). */
export async function startSqliteServerProcess(): Promise<{
  server: ServerProcess;
  db: { PARLANCE_DATABASE_URL: string };
}> {
  const db = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
  return { server: await startServerProcess(db), db };
}

/** Stops a server process started for a file's tests and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  server.proc.kill("SIGTERM");
  await server.exited;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bun server/cli.ts …args` to completion. */
export async function runCli(args: string[], env: Record<string, string>, cwd = REPO): Promise<CliResult> {
  const proc = Bun.spawn(["bun", CLI, ...args], {
    cwd,
    env: { ...shellEnv(), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Runs an admin command that must succeed, and returns its JSON document. */
export async function admin<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string>,
): Promise<T> {
  const r = await runCli(["admin", ...args], env);
  if (r.code !== 0) throw new Error(`admin ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

export const bootstrapKey = (stderr: string): string | null => /pl_[0-9a-f]{64}/.exec(stderr)?.[0] ?? null;
export const bootstrapOrg = (stderr: string): string | null =>
  /Organization id: ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? null;

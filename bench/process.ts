/** Child processes of a bench run: the real `parlance serve`, the hello-world ceiling, admin commands. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const REPO = join(import.meta.dir, "..");
const CLI = join(REPO, "server", "cli.ts");
const HELLO = join(import.meta.dir, "hello-server.ts");
const START_TIMEOUT_MS = 20_000;
const STDERR_KEPT = 64 * 1024;

export interface ChildServer {
  baseUrl: string;
  pid: number;
  /** The last 64 KiB of its stderr. */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 6 s. */
  stop(): Promise<void>;
}

async function startListening(argv: string[], env: Record<string, string>): Promise<ChildServer> {
  const proc: Subprocess<"ignore", "ignore", "pipe"> = Bun.spawn(argv, {
    cwd: REPO,
    env: { ...process.env, PORT: "0", ...env },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  let err = "";
  let resolvePort: (port: number) => void = () => {};
  const port = new Promise<number>((resolve) => {
    resolvePort = resolve;
  });
  // Drained for the whole life of the process: a full pipe would block the server's writes.
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      err += decoder.decode(chunk);
      const m = /"message":"listening".*?"port":(\d+)/.exec(err);
      if (m) resolvePort(Number(m[1]));
      if (err.length > 2 * STDERR_KEPT) err = err.slice(-STDERR_KEPT);
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${argv.join(" ")} did not start:\n${err}`)), START_TIMEOUT_MS);
  });
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(`${argv.join(" ")} exited with ${code}:\n${err}`);
  });
  try {
    const p = await Promise.race([port, timeout, exitedEarly]);
    return {
      baseUrl: `http://127.0.0.1:${p}`,
      pid: proc.pid,
      stderr: () => err.slice(-STDERR_KEPT),
      async stop() {
        if (proc.exitCode !== null || proc.signalCode !== null) return;
        proc.kill("SIGTERM");
        const killer = setTimeout(() => proc.kill("SIGKILL"), 6_000);
        await proc.exited;
        clearTimeout(killer);
      },
    };
  } catch (e) {
    proc.kill("SIGKILL");
    throw e;
  } finally {
    clearTimeout(timer);
    exitedEarly.catch(() => {});
  }
}

/**
 * Extra `bun` flags for the Parlance server, to profile it under the bench's load, e.g.
 * PARLANCE_BENCH_SERVER_FLAGS="--cpu-prof-md --cpu-prof-dir=/tmp/prof" (written when it stops).
 */
export const SERVER_FLAGS = (process.env.PARLANCE_BENCH_SERVER_FLAGS ?? "")
  .split(" ")
  .filter((f) => f !== "");

/** `bun server/cli.ts serve` on a free loopback port, first start: the bootstrap key is on stderr. */
export async function startParlance(
  databaseUrl: string,
): Promise<ChildServer & { bootstrapKey: string; orgId: string }> {
  const server = await startListening(["bun", ...SERVER_FLAGS, CLI, "serve"], {
    PARLANCE_HOST: "127.0.0.1",
    PARLANCE_DATABASE_URL: databaseUrl,
    PARLANCE_BOOTSTRAP: "1",
  });
  const key = /pl_[0-9a-f]{64}/.exec(server.stderr())?.[0];
  const orgId = /Organization id: ([0-9a-f-]{36})/.exec(server.stderr())?.[1];
  if (!key || !orgId) {
    await server.stop();
    throw new Error(`no bootstrap key on the server's stderr:\n${server.stderr()}`);
  }
  return { ...server, bootstrapKey: key, orgId };
}

/**
 * `bun server/cli.ts serve` on a store that already holds its keys (no bootstrap), and the setup
 * token it prints while the store has no user (printed before it reports listening).
 */
export async function startParlanceOn(
  databaseUrl: string,
): Promise<ChildServer & { setupToken: string | null }> {
  const server = await startListening(["bun", ...SERVER_FLAGS, CLI, "serve"], {
    PARLANCE_HOST: "127.0.0.1",
    PARLANCE_DATABASE_URL: databaseUrl,
    PARLANCE_BOOTSTRAP: "0",
  });
  return { ...server, setupToken: /\/setup#(\S+)/.exec(server.stderr())?.[1] ?? null };
}

/** bench/hello-server.ts: the ceiling of the small GET. */
export const startHello = () => startListening(["bun", HELLO], { HOST: "127.0.0.1" });

/** Runs `bun server/cli.ts admin …` against the same store and returns its JSON document. */
export async function admin<T>(databaseUrl: string, args: string[]): Promise<T> {
  const proc = Bun.spawn(["bun", CLI, "admin", ...args], {
    cwd: REPO,
    env: { ...process.env, PARLANCE_DATABASE_URL: databaseUrl },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(killer);
  if (code !== 0) throw new Error(`admin ${args.join(" ")} failed (${code}): ${stderr}`);
  return JSON.parse(stdout) as T;
}

/** A field of /proc/<pid>/status in KiB (VmRSS, VmHWM…). */
export function procStatusKib(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where that is not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Tracks the peak RSS of a process while `work` runs: VmHWM after a reset, and VmRSS sampled every
 * 5 ms in case the reset is not allowed. Returns the peak in KiB.
 */
export async function peakRssDuring(pid: number, work: () => Promise<void>): Promise<number> {
  const exact = resetPeakRss(pid);
  let sampled = procStatusKib(pid, "VmRSS");
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, procStatusKib(pid, "VmRSS"));
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return exact ? Math.max(sampled, procStatusKib(pid, "VmHWM")) : sampled;
}

/** The load generator: wrk (C, from Debian) with bench/rotate-keys.lua, on loopback, bounded in time. */
import { join } from "node:path";

const SCRIPT = join(import.meta.dir, "rotate-keys.lua");

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Answers other than 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
  /** Requests that got no answer within wrk's timeout (5 s); counted in socketErrors too. */
  timeouts: number;
  p50Us: number;
  p99Us: number;
  /** wrk's own CPU over the run (all its threads), µs: the generator's share of the machine. */
  generatorCpuUs: { user: number; system: number };
  /** Times wrk's threads slept waiting for an answer: more when the server answers slower. */
  generatorSleeps: number;
}

export interface LoadSettings {
  seconds: number;
  connections: number;
  threads: number;
}

export function requireWrk(): string {
  const wrk = Bun.which("wrk");
  if (!wrk) throw new Error("the small-GET figures need wrk on the PATH (Debian: apt-get install -y wrk)");
  return wrk;
}

/** Loads `url` (127.0.0.1 only), each request with the next key of `keysFile`. */
export async function runLoad(url: string, keysFile: string, s: LoadSettings): Promise<LoadResult> {
  if (!url.startsWith("http://127.0.0.1:")) throw new Error(`load stays on loopback (got ${url})`);
  const proc = Bun.spawn(
    [
      requireWrk(),
      `-t${s.threads}`,
      `-c${s.connections}`,
      `-d${s.seconds}s`,
      "--timeout",
      "5s",
      "-s",
      SCRIPT,
      url,
      "--",
      keysFile,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const killer = setTimeout(() => proc.kill("SIGKILL"), (s.seconds + 20) * 1000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(killer);
  const line = stdout.split("\n").find((l) => l.startsWith('{"requests"'));
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}):\n${stdout}\n${stderr}`);
  const r = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    non2xx: number;
    connect: number;
    read: number;
    write: number;
    timeout: number;
    p50Us: number;
    p99Us: number;
  };
  const seconds = r.durationUs / 1e6;
  const usage = proc.resourceUsage();
  return {
    requests: r.requests,
    seconds,
    rps: r.requests / seconds,
    non2xx: r.non2xx,
    socketErrors: r.connect + r.read + r.write + r.timeout,
    timeouts: r.timeout,
    p50Us: r.p50Us,
    p99Us: r.p99Us,
    generatorCpuUs: {
      user: Number(usage?.cpuTime.user ?? 0),
      system: Number(usage?.cpuTime.system ?? 0),
    },
    generatorSleeps: Number(usage?.contextSwitches.voluntary ?? 0),
  };
}

/**
 * The benchmark harness cannot rot: `bun bench/main.ts --smoke --json` (1,000 rows, 2 runs, 1-second
 * loads, both stores) runs as a child process and must report every figure with numbers. Speed is
 * not checked here; docs/benchmarks.md holds the real figures.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ALL_FIGURES } from "../bench/names.ts";
import { POSTGRES_URL, postgresReachable } from "./storage/postgres-setup.ts";

const REPO = join(import.meta.dir, "..");

function wrkAvailable(): boolean {
  if (Bun.which("wrk")) return true;
  const why = "wrk is not installed (Debian: apt-get install -y wrk)";
  if (process.env.CI) {
    test("wrk is installed for the bench smoke run", () => {
      throw new Error(why);
    });
  } else {
    console.warn(`Skipping the bench smoke run: ${why}`);
    test.skip(`bench smoke run (skipped: ${why})`, () => {});
  }
  return false;
}

if (wrkAvailable() && (await postgresReachable())) {
  test("bun run bench --smoke --json reports every figure with numbers", async () => {
    const proc = Bun.spawn(["bun", join(REPO, "bench", "main.ts"), "--smoke", "--json"], {
      cwd: REPO,
      env: { ...process.env, PARLANCE_BENCH_POSTGRES_URL: POSTGRES_URL },
      stdout: "pipe",
      stderr: "pipe",
    });
    // The browser figures start a server and Chromium of their own, the scale figures six servers on
    // tiny stores they build: the run is given four minutes.
    const killer = setTimeout(() => proc.kill("SIGKILL"), 235_000);
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    clearTimeout(killer);
    if (code !== 0) throw new Error(`bench exited with ${code}:\n${stderr.slice(-4000)}`);

    const report = JSON.parse(stdout) as { figures: Record<string, unknown>[] };
    expect(report.figures.map((f) => f.name)).toEqual([...ALL_FIGURES]);
    for (const figure of report.figures) {
      for (const field of ["median", "min", "max", "floor", "ratio"]) {
        const value = figure[field];
        if (typeof value !== "number" || !Number.isFinite(value))
          throw new Error(`${figure.name}.${field} is ${JSON.stringify(value)}, not a number`);
      }
      expect(figure.min as number).toBeLessThanOrEqual(figure.median as number);
      expect(figure.median as number).toBeLessThanOrEqual(figure.max as number);
      expect(["ms", "req/s", "MiB"]).toContain(String(figure.unit));
      expect(figure.failed).toBeUndefined();
      // Each pull says what it cost the server's main thread (bench/process-cost.ts), on Linux.
      if (process.platform === "linux" && /^pull-50k-/.test(String(figure.name))) {
        const details = figure.details as Record<string, number>;
        expect(details.serverMainCpuMs).toBeGreaterThan(0);
        expect(details.serverFaults).toBeGreaterThanOrEqual(0);
      }
    }
  }, 240_000);
}

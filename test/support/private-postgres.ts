/**
 * A Postgres cluster of the test's own (initdb and pg_ctl in a temporary folder, on a free port), for
 * tests that stop and start the database under a running server. The machine's shared cluster at
 * 5432 is never touched: other tests and other people use it.
 */
import { test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PrivateCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  url: string;
  /** `pg_ctl stop -m fast`: connections are cut, as in a restart or a failover. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster if it runs and deletes its folder. */
  destroy(): Promise<void>;
}

/** initdb and pg_ctl on PATH, else Debian's versioned folder. */
function binaries(): { initdb: string; pgCtl: string } | null {
  const onPath = Bun.which("initdb");
  if (onPath && Bun.which("pg_ctl")) return { initdb: onPath, pgCtl: Bun.which("pg_ctl") as string };
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb"))) return { initdb: join(bin, "initdb"), pgCtl: join(bin, "pg_ctl") };
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Postgres refuses to run as root: as root, the commands run as the `postgres` user. */
async function run(command: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const argv = asRoot ? ["runuser", "-u", "postgres", "--", ...command] : command;
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited with ${code}:\n${out}\n${err}`);
}

async function chownToPostgres(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const proc = Bun.spawn(["chown", "postgres", dir]);
  if ((await proc.exited) !== 0) throw new Error(`chown postgres ${dir} failed`);
}

/**
 * A fresh cluster, started; or null when this machine cannot make one (then a test is registered
 * that fails in CI, or is shown as skipped elsewhere, so it is never skipped silently).
 */
export async function startPrivateCluster(): Promise<PrivateCluster | null> {
  const bins = binaries();
  const why = bins ? null : "initdb and pg_ctl were not found (Debian: apt-get install postgresql)";
  if (!bins) {
    if (process.env.CI)
      test("a private Postgres cluster can be made", () => {
        throw new Error(why ?? "");
      });
    else test.skip(`private Postgres cluster (skipped: ${why})`, () => {});
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "parlance-pg-"));
  await chownToPostgres(dir);
  const data = join(dir, "data");
  const port = await freePort();
  await run([bins.initdb, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    run([bins.pgCtl, "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  const stop = (mode: "fast" | "immediate") =>
    run([bins.pgCtl, "-D", data, "-m", mode, "-w", "-t", "60", "stop"]);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop("fast");
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop("immediate").catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

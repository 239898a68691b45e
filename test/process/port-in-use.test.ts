/**
 * Issue 14: a second server on a port already in use is refused with a clear message and a
 * non-zero exit, under Bun and under Deno, whichever came first. Before, Elysia's default
 * SO_REUSEPORT let two servers (each with its own store) share the port and split the requests.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  bootstrapKey,
  CLI,
  REPO,
  type ServerProcess,
  startServerProcess,
  tempDir,
} from "../support/process.ts";

const DENO = join(REPO, "node_modules", "deno", "deno");
const RUNTIMES: Record<string, string[]> = {
  Bun: ["bun", CLI, "serve"],
  Deno: [DENO, "run", "--allow-all", "--node-modules-dir=manual", join(REPO, "server", "deno.ts")],
};

const freshDb = () => ({ PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` });

/** Runs a server command that must fail; its exit code and stderr. */
async function mustFail(command: string[], env: Record<string, string>) {
  const proc = Bun.spawn(command, {
    cwd: REPO,
    env: { ...process.env, PARLANCE_HOST: "127.0.0.1", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  return { code, stderr };
}

async function stop(server: ServerProcess): Promise<void> {
  server.proc.kill("SIGTERM");
  await server.exited;
}

describe("a port already in use", () => {
  for (const [firstName, first] of Object.entries(RUNTIMES)) {
    test(`with a ${firstName} server on it, a second Bun or Deno server is refused and the first keeps every request`, async () => {
      const a = await startServerProcess(freshDb(), REPO, first);
      try {
        const port = new URL(a.baseUrl).port;
        const key = bootstrapKey(a.stderr()) as string;
        for (const [secondName, second] of Object.entries(RUNTIMES)) {
          const b = await mustFail(second, { ...freshDb(), PORT: port });
          expect(b.code, `${secondName} after ${firstName}`).toBe(1);
          expect(b.stderr).toContain(`parlance: Port ${port} on 127.0.0.1 is already in use`);
          expect(b.stderr).toContain("--port");
          // It did not get as far as showing a bootstrap key it would never serve.
          expect(bootstrapKey(b.stderr)).toBeNull();
        }
        // Every request reaches the first server, which knows its key: none is answered by another.
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`${a.baseUrl}/api/v1/test`, { headers: { authorization: `Bearer ${key}` } }).then(
              (r) => r.status,
            ),
          ),
        );
        expect(statuses).toEqual(Array(20).fill(200));
      } finally {
        await stop(a);
      }
    }, 60_000);
  }

  test("--port in use: the same message, naming the port the flag chose", async () => {
    const a = await startServerProcess(freshDb());
    try {
      const port = new URL(a.baseUrl).port;
      const b = await mustFail(["bun", CLI, "serve", "--port", port, "--host", "127.0.0.1"], {
        ...freshDb(),
        PORT: "0",
      });
      expect(b.code).toBe(1);
      expect(b.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await stop(a);
    }
  }, 30_000);
});

/**
 * `parlance serve` on a SQLite file (Bun) commits imports on a thread of its own, at a lower
 * priority than the thread that answers requests (storage/sqlite/import-thread.ts): a push and a
 * re-push of rows that exist come back whole through the API, with their history.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { IMPORT_THREAD_NICE } from "../../storage/sqlite/import-thread.ts";
import { admin, bootstrapKey, bootstrapOrg, startServerProcess, tempDir } from "../support/process.ts";

/**
 * The nice value of each thread of process `pid` (field 19 of its stat), the main thread first; a
 * thread that ended between the listing and its read is left out.
 */
const nices = (pid: number): number[] =>
  readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return [Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])];
    } catch {
      return [];
    }
  });

test.if(process.platform === "linux")(
  "serve on a SQLite file imports on its import thread: pushes land whole, the thread at its own nice value",
  async () => {
    const env = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
    const server = await startServerProcess(env);
    try {
      const key = bootstrapKey(server.stderr()) ?? "";
      const project = await admin<{ id: string }>(
        ["project", "create", "--org", bootstrapOrg(server.stderr()) ?? "", "--name", "P", "--base", "en"],
        env,
      );
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const push = async (value: (i: number) => string) => {
        const doc = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, value(i)]));
        const res = await fetch(`${server.baseUrl}/api/v1/push`, {
          method: "POST",
          headers,
          body: JSON.stringify({ projectId: project.id, language: "en", content: JSON.stringify(doc) }),
        });
        expect(res.status).toBe(202);
        const { jobId } = (await res.json()) as { jobId: string };
        for (let i = 0; i < 600; i++) {
          const { data: job } = (await (
            await fetch(`${server.baseUrl}/api/v1/jobs/${jobId}`, { headers })
          ).json()) as {
            data: { status: string };
          };
          if (job.status !== "pending" && job.status !== "running") return job.status;
          await Bun.sleep(50);
        }
        throw new Error("the import never finished");
      };
      expect(await push((i) => `first ${i}`)).toBe("completed");
      // A rewrite: every row exists, so each is updated on the thread by ImportThread.each.
      expect(await push((i) => `second ${i} \u00e9`)).toBe("completed");
      const pulled = await fetch(
        `${server.baseUrl}/api/v1/pull?project_id=${project.id}&language=en&format=json`,
        {
          headers,
        },
      );
      expect(pulled.status).toBe(200);
      const doc = (await pulled.json()) as Record<string, string>;
      expect(Object.keys(doc)).toHaveLength(2_000);
      expect(doc.k1999).toBe("second 1999 \u00e9");
      const db = new Database(env.PARLANCE_DATABASE_URL.slice("sqlite:".length), { readonly: true });
      try {
        const entries = db
          .query("SELECT new_value, version FROM record_history WHERE key = 'k7' ORDER BY version")
          .all();
        expect(entries).toEqual([
          { new_value: "first 7", version: 1 },
          { new_value: "second 7 \u00e9", version: 2 },
        ]);
      } finally {
        db.close();
      }
      expect(nices(server.proc.pid)).toContain(IMPORT_THREAD_NICE);
      expect(nices(server.proc.pid)[0]).toBe(0);
    } finally {
      server.proc.kill("SIGTERM");
      await server.exited;
    }
  },
  60_000,
);

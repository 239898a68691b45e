/**
 * A runtime whose host gives an import thread (storage/sqlite/import-thread.ts) commits a SQLite
 * file's imports there: a push and a re-push of rows that exist come back whole through the API,
 * with their history, and the thread runs at its own nice value. `serve` does not start it yet
 * (server/host-bun.ts): it costs a push's peak memory (docs/benchmarks.md, "The import stall,
 * ninth pass").
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCOPES } from "../../core/types.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { openRuntime } from "../../server/runtime.ts";
import { serverFor } from "../../server/serve.ts";
import {
  createImportThread,
  IMPORT_THREAD_NICE,
  type ImportThread,
} from "../../storage/sqlite/import-thread.ts";

/** The nice value of each thread of this process (field 19 of its stat). */
const nices = (): number[] =>
  readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });

test("with the host's import thread, imports of a SQLite file commit there: pushes land whole, with history", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "parlance-thread-wiring-")), "db.sqlite");
  const config = readConfig({ PARLANCE_DATABASE_URL: `sqlite:${file}` });
  const started: ImportThread[] = [];
  const host = {
    ...bunHost,
    importThread: (path: string) => {
      const thread = createImportThread(path);
      started.push(thread);
      return thread;
    },
  };
  const runtime = await openRuntime(config, () => {}, host);
  try {
    expect(started).toHaveLength(1);
    const app = serverFor(runtime, config, () => {}, host);
    const org = await runtime.parlance.admin.createOrg("Org");
    const key = await runtime.parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const project = await runtime.parlance.admin.createProject({
      orgId: org.id,
      name: "P",
      baseLanguage: "en",
      languages: [],
    });
    const headers = { authorization: `Bearer ${key.key}`, "content-type": "application/json" };
    const call = async (path: string, init: RequestInit = {}) =>
      app.handle(new Request(`http://localhost${path}`, { ...init, headers }));
    const push = async (value: (i: number) => string) => {
      const doc = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, value(i)]));
      const body = JSON.stringify({ projectId: project.id, language: "en", content: JSON.stringify(doc) });
      const res = await call("/api/v1/push", { method: "POST", body });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      for (let i = 0; i < 600; i++) {
        const { data } = (await (await call(`/api/v1/jobs/${jobId}`)).json()) as { data: { status: string } };
        if (data.status !== "pending" && data.status !== "running") return data.status;
        await Bun.sleep(20);
      }
      throw new Error("the import never finished");
    };
    expect(await push((i) => `first ${i}`)).toBe("completed");
    // A rewrite: every row exists, so each is updated on the thread by ImportThread.each.
    expect(await push((i) => `second ${i} \u00e9`)).toBe("completed");
    const pulled = await call(`/api/v1/pull?project_id=${project.id}&language=en&format=json`);
    expect(pulled.status).toBe(200);
    const doc = (await pulled.json()) as Record<string, string>;
    expect(Object.keys(doc)).toHaveLength(2_000);
    expect(doc.k1999).toBe("second 1999 \u00e9");
    const db = new Database(file, { readonly: true });
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
    if (process.platform === "linux") expect(nices()).toContain(IMPORT_THREAD_NICE);
  } finally {
    await runtime.close();
  }
}, 60_000);

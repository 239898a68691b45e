/**
 * A job that kills its process is not retried forever (issue 10): killed mid-import as many times as
 * PARLANCE_JOB_MAX_ATTEMPTS allows, it is failed with a message at the next start, and nothing of
 * it is written.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { admin, bootstrapKey, bootstrapOrg, CLI, startServerProcess, tempDir } from "../support/process.ts";

const ROWS = 50_000;
const bigContent = () => {
  const doc: Record<string, Record<string, string>> = {};
  for (let i = 0; i < ROWS; i++) {
    const name = `section${i % 100}`;
    const section = doc[name] ?? {};
    doc[name] = section;
    section[`key${i}`] = `value ${i} ${"x".repeat(100)}`;
  }
  return JSON.stringify(doc);
};

interface Row {
  status: string;
  attempts: number;
}

/** Waits until the job is running in its `attempt`th claim; null if it finished first. */
async function claimed(db: Database, jobId: string, attempt: number): Promise<Row | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = db.query<Row, [string]>("SELECT status, attempts FROM jobs WHERE id = ?").get(jobId);
    if (row && row.status !== "pending" && row.status !== "running") return null;
    if (row && row.status === "running" && row.attempts >= attempt) return row;
    if (Date.now() > deadline) throw new Error(`job ${jobId} never reached attempt ${attempt}`);
    await Bun.sleep(2);
  }
}

/** `parlance serve` without waiting for it to listen: it claims unfinished jobs before that. */
const spawnServer = (env: Record<string, string>) =>
  Bun.spawn(["bun", CLI, "serve"], {
    env: { ...process.env, PORT: "0", PARLANCE_HOST: "127.0.0.1", ...env },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });

test("an import killed with its process twice (PARLANCE_JOB_MAX_ATTEMPTS=2) is failed at the next start", async () => {
  const dbPath = join(tempDir(), "db.sqlite");
  const env = { PARLANCE_DATABASE_URL: `sqlite:${dbPath}`, PARLANCE_JOB_MAX_ATTEMPTS: "2" };
  const content = bigContent();
  let outcome: { jobId: string; projectId: string } | null = null;
  // The first start creates the bootstrap key; later starts find it.
  let key = "";
  let orgId = "";
  // Each kill must land while the import runs; on a very fast machine one may come too late (the
  // job completed), and the round starts over with a new project.
  for (let round = 0; round < 3 && !outcome; round++) {
    const first = await startServerProcess(env);
    key ||= bootstrapKey(first.stderr()) ?? "";
    orgId ||= bootstrapOrg(first.stderr()) ?? "";
    const project = await admin<{ id: string }>(
      ["project", "create", "--org", orgId, "--name", `P${round}`, "--base", "en"],
      env,
    );
    const res = await fetch(`${first.baseUrl}/api/v1/push`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ projectId: project.id, language: "en", content }),
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const db = new Database(dbPath, { readonly: true });
    try {
      if (!(await claimed(db, jobId, 1))) {
        first.proc.kill("SIGTERM");
        await first.exited;
        continue;
      }
      first.proc.kill("SIGKILL");
      await first.exited;
      const second = spawnServer(env);
      const again = await claimed(db, jobId, 2);
      second.kill("SIGKILL");
      await second.exited;
      if (again) outcome = { jobId, projectId: project.id };
    } finally {
      db.close();
    }
  }
  expect(outcome).not.toBeNull();
  const { jobId, projectId } = outcome as { jobId: string; projectId: string };
  const server = await startServerProcess(env);
  try {
    const auth = { headers: { authorization: `Bearer ${key}` } };
    const deadline = Date.now() + 30_000;
    let job: { status: string; errorMessage: string | null };
    for (;;) {
      const res = await fetch(`${server.baseUrl}/api/v1/jobs/${jobId}`, auth);
      job = ((await res.json()) as { data: typeof job }).data;
      if (job.status !== "pending" && job.status !== "running") break;
      if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
      await Bun.sleep(20);
    }
    expect(job).toMatchObject({
      status: "failed",
      errorMessage:
        "Import failed: it was started 2 times and never finished (the server stopped or lost its database each time), so it is not retried",
    });
    const page = await fetch(
      `${server.baseUrl}/api/v1/translations?project_id=${projectId}&language=en&limit=1`,
      auth,
    );
    expect(((await page.json()) as { pagination: { total: number } }).pagination.total).toBe(0);
    const db = new Database(dbPath, { readonly: true });
    expect(db.query("SELECT attempts FROM jobs WHERE id = ?").get(jobId)).toEqual({ attempts: 3 });
    db.close();
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
}, 180_000);

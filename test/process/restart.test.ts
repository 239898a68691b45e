import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { admin, bootstrapKey, bootstrapOrg, startServerProcess, tempDir } from "../support/process.ts";

const ROWS = 50_000;
const bigContent = (tag: string) => {
  const doc: Record<string, Record<string, string>> = {};
  for (let i = 0; i < ROWS; i++) {
    const name = `section${i % 100}`;
    const section = doc[name] ?? {};
    section[`key${i}`] = `${tag} value ${i}`;
    doc[name] = section;
  }
  return JSON.stringify(doc);
};

async function waitForJob(
  baseUrl: string,
  key: string,
  jobId: string,
): Promise<{ status: string; summary: Record<string, number>; errorMessage: string | null }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/v1/jobs/${jobId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { data } = (await res.json()) as {
      data: { status: string; summary: Record<string, number>; errorMessage: string | null };
    };
    if (data.status !== "pending" && data.status !== "running") return data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${data.status}`);
    await Bun.sleep(50);
  }
}

describe("nothing accepted is lost", () => {
  test("a job interrupted by SIGKILL completes after the server starts again", async () => {
    const dbPath = join(tempDir(), "db.sqlite");
    const env = { PARLANCE_DATABASE_URL: `sqlite:${dbPath}` };
    let server = await startServerProcess(env);
    const key = bootstrapKey(server.stderr()) as string;
    const orgId = bootstrapOrg(server.stderr()) as string;
    let interrupted: { jobId: string; projectId: string } | null = null;
    // The kill must land while the job is unfinished; on a very fast machine it may not, so retry.
    for (let attempt = 0; attempt < 3 && !interrupted; attempt++) {
      const project = await admin<{ id: string }>(
        ["project", "create", "--org", orgId, "--name", `P${attempt}`, "--base", "en"],
        env,
      );
      const res = await fetch(`${server.baseUrl}/api/v1/push`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ projectId: project.id, language: "en", content: bigContent(`v${attempt}`) }),
      });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      server.proc.kill("SIGKILL");
      await server.exited;
      const db = new Database(dbPath, { readonly: true });
      const row = db.query<{ status: string }, [string]>("SELECT status FROM jobs WHERE id = ?").get(jobId);
      db.close();
      if (row && row.status !== "completed") interrupted = { jobId, projectId: project.id };
      server = await startServerProcess(env);
    }
    try {
      expect(interrupted).not.toBeNull();
      const { jobId, projectId } = interrupted as { jobId: string; projectId: string };
      const job = await waitForJob(server.baseUrl, key, jobId);
      expect(job.status).toBe("completed");
      expect(job.summary).toEqual({ created: ROWS, updated: 0 });
      const res = await fetch(
        `${server.baseUrl}/api/v1/translations?project_id=${projectId}&language=en&limit=1`,
        {
          headers: { authorization: `Bearer ${key}` },
        },
      );
      expect(((await res.json()) as { pagination: { total: number } }).pagination.total).toBe(ROWS);
    } finally {
      server.proc.kill("SIGTERM");
      await server.exited;
    }
  }, 120_000);

  test("SIGTERM exits within 5 s and writes back usage counts and rate-limit windows", async () => {
    const env = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
    const first = await startServerProcess(env);
    const key = bootstrapKey(first.stderr()) as string;
    const auth = { headers: { authorization: `Bearer ${key}` } };
    for (let i = 0; i < 5; i++) expect((await fetch(`${first.baseUrl}/api/v1/test`, auth)).status).toBe(200);
    const started = performance.now();
    first.proc.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);

    const second = await startServerProcess(env);
    try {
      const res = await fetch(`${second.baseUrl}/api/v1/test`, auth);
      const body = (await res.json()) as { data: { usageCount: number; rateLimit: number } };
      expect(body.data.usageCount).toBe(6);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(body.data.rateLimit - 6));
    } finally {
      second.proc.kill("SIGTERM");
      await second.exited;
    }
  }, 60_000);
});

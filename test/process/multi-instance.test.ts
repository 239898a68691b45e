import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { POSTGRES_URL, postgresReachable } from "../storage/postgres-setup.ts";
import {
  admin,
  bootstrapKey,
  bootstrapOrg,
  type ServerProcess,
  startServerProcess,
} from "../support/process.ts";

/** Several stateless instances on one Postgres database (issue: scale-out, nothing lost). */
if (await postgresReachable()) {
  describe("two server instances on one Postgres database", () => {
    const dbName = `parlance_mi_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${dbName}`;
    const env = { PARLANCE_DATABASE_URL: url.toString(), PARLANCE_JOB_LEASE_MS: "2000" };
    const server = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
    const running: ServerProcess[] = [];
    let key = "";
    let orgId = "";

    const start = async () => {
      const s = await startServerProcess(env);
      running.push(s);
      return s;
    };
    const stop = async (s: ServerProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
      s.proc.kill(signal);
      await s.exited;
    };
    const call = (s: ServerProcess, path: string, init: RequestInit = {}, bearer = key) =>
      fetch(`${s.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...init.headers },
      });
    const waitForJob = async (s: ServerProcess, jobId: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { data } = (await (await call(s, `/api/v1/jobs/${jobId}`)).json()) as {
          data: { status: string; summary: Record<string, number> };
        };
        if (data.status !== "pending" && data.status !== "running") return data;
        if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${data.status}`);
        await Bun.sleep(100);
      }
    };

    beforeAll(async () => {
      await server.unsafe(`CREATE DATABASE ${dbName}`);
    });
    afterAll(async () => {
      for (const s of running) if (s.proc.exitCode === null) await stop(s, "SIGKILL");
      await server.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await server.end({ timeout: 5 });
      // DROP DATABASE waits for a checkpoint, which takes seconds on a busy shared cluster.
    }, 120_000);

    test("two instances started at the same moment on an empty database both come up, with one bootstrap key", async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const keys = [bootstrapKey(a.stderr()), bootstrapKey(b.stderr())].filter((k) => k !== null);
      expect(keys).toHaveLength(1);
      key = keys[0] as string;
      orgId = (bootstrapOrg(a.stderr()) ?? bootstrapOrg(b.stderr())) as string;
      for (const s of [a, b]) expect((await fetch(`${s.baseUrl}/healthz`)).status).toBe(200);
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const versions = await db`SELECT version, count(*)::int AS n FROM parlance_migrations GROUP BY version`;
      await db.end({ timeout: 5 });
      expect(versions.length).toBeGreaterThan(0);
      for (const v of versions) expect(v.n).toBe(1);
      await Promise.all([stop(a), stop(b)]);
    }, 60_000);

    test("a push accepted by one instance is polled to completion through the other", async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const project = await admin<{ id: string }>(
        ["project", "create", "--org", orgId, "--name", "Shared", "--base", "en"],
        env,
      );
      const res = await call(a, "/api/v1/push", {
        method: "POST",
        body: JSON.stringify({
          projectId: project.id,
          language: "en",
          content: JSON.stringify({ hello: { world: "Hello" } }),
        }),
      });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      const job = await waitForJob(b, jobId);
      expect(job).toEqual(
        expect.objectContaining({ status: "completed", summary: { created: 1, updated: 0 } }),
      );
      const pulled = await call(b, `/api/v1/pull?project_id=${project.id}&language=en`);
      expect(await pulled.json()).toEqual({ "hello.world": "Hello" });
      await Promise.all([stop(a), stop(b)]);
    }, 60_000);

    test("the instance running a 50,000-row job dies by SIGKILL; the other completes it with exact counts", async () => {
      const rows = 50_000;
      const doc: Record<string, string> = {};
      for (let i = 0; i < rows; i++) doc[`k${String(i).padStart(5, "0")}`] = `value ${i}`;
      const content = JSON.stringify(doc);
      const b = await start();
      let interrupted: { jobId: string; projectId: string } | null = null;
      // The kill must land before the job commits; on a very fast machine it may not, so retry.
      for (let attempt = 0; attempt < 3 && !interrupted; attempt++) {
        const a = await start();
        const project = await admin<{ id: string }>(
          ["project", "create", "--org", orgId, "--name", `Big ${attempt}`, "--base", "en"],
          env,
        );
        const res = await call(a, "/api/v1/push", {
          method: "POST",
          body: JSON.stringify({ projectId: project.id, language: "en", content }),
        });
        expect(res.status).toBe(202);
        const { jobId } = (await res.json()) as { jobId: string };
        await stop(a, "SIGKILL");
        const check = postgres(url.toString(), { max: 1, onnotice: () => {} });
        const [row] = await check`SELECT status FROM jobs WHERE id = ${jobId}`;
        await check.end({ timeout: 5 });
        if (row && row.status !== "completed") interrupted = { jobId, projectId: project.id };
      }
      expect(interrupted).not.toBeNull();
      const { jobId, projectId } = interrupted as { jobId: string; projectId: string };
      const job = await waitForJob(b, jobId);
      expect(job.status).toBe("completed");
      expect(job.summary).toEqual({ created: rows, updated: 0 });
      const listed = await call(b, `/api/v1/translations?project_id=${projectId}&language=en&limit=1`);
      expect(((await listed.json()) as { pagination: { total: number } }).pagination.total).toBe(rows);
      await stop(b);
    }, 120_000);

    test("a deactivated key is refused by every instance: an operator's at the next request, plain SQL's within a second", async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const create = (name: string) =>
        admin<{ id: string; key: string }>(
          [
            "key",
            "create",
            "--org",
            orgId,
            "--name",
            `${name}-${crypto.randomUUID().slice(0, 6)}`,
            "--scopes",
            "translations:read",
          ],
          env,
        );
      const [byOperator, bySql] = [await create("operator"), await create("sql")];
      // Both instances have served both keys, so both hold them in their caches.
      for (let i = 0; i < 5; i++)
        for (const s of [a, b])
          for (const k of [byOperator, bySql])
            expect((await call(s, "/api/v1/test", {}, k.key)).status).toBe(200);
      await admin(["key", "deactivate", "--id", byOperator.id], env);
      for (const s of [a, b]) expect((await call(s, "/api/v1/test", {}, byOperator.key)).status).toBe(401);

      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await db`UPDATE api_keys SET active = false WHERE id = ${bySql.id}`;
      await db.end({ timeout: 5 });
      const changedAt = performance.now();
      for (const s of [a, b]) {
        for (;;) {
          const sentAt = performance.now();
          const status = (await call(s, "/api/v1/test", {}, bySql.key)).status;
          if (status === 401) break;
          expect(status).toBe(200);
          expect(sentAt - changedAt).toBeLessThan(1_000);
          await Bun.sleep(10);
        }
      }
      await Promise.all([stop(a), stop(b)]);
    }, 60_000);

    test("a key with limit L gets exactly L of 2L concurrent requests spread over both instances", async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const limit = 25;
      const limited = await admin<{ key: string }>(
        [
          "key",
          "create",
          "--org",
          orgId,
          "--name",
          `limited-${crypto.randomUUID().slice(0, 6)}`,
          "--scopes",
          "translations:read",
          "--rate-limit",
          String(limit),
        ],
        env,
      );
      const responses = await Promise.all(
        Array.from({ length: 2 * limit }, (_, i) =>
          call(i % 2 === 0 ? a : b, "/api/v1/test", {}, limited.key),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(limit);
      const remaining = responses
        .filter((r) => r.status === 200)
        .map((r) => Number(r.headers.get("x-ratelimit-remaining")));
      expect(remaining.toSorted((x, y) => x - y)).toEqual(Array.from({ length: limit }, (_, i) => i));
      await Promise.all([stop(a), stop(b)]);
    }, 60_000);
  });
}

/**
 * `serve` wires its app to the runtime: every request it takes in is noted in the runtime's traffic,
 * which the collection after imports asks before pausing the event loop (server/traffic.ts).
 */
import { expect, spyOn, test } from "bun:test";
import { READING_PACE_BYTES } from "../../core/flatten.ts";
import { LARGE_PLAN_WRITES } from "../../core/import-runner.ts";
import { COLLECTIONS_IN_CHECKS } from "../../core/records/import-audit.ts";
import { SCOPES } from "../../core/types.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { COLLECT_AFTER_BODY_BYTES } from "../../server/push-body.ts";
import { openRuntime, QUIET_REQUESTS } from "../../server/runtime.ts";
import { serverFor } from "../../server/serve.ts";
import type { Traffic } from "../../server/traffic.ts";

test("every request the served app takes in, answered or refused, is noted in the runtime's traffic", async () => {
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  let noted = 0;
  const traffic: Traffic = {
    note: () => void noted++,
    lighterThan: () => false,
    arrivedFewerThan: () => false,
  };
  try {
    const app = serverFor({ ...runtime, traffic }, config, () => {}, bunHost);
    const statuses = [];
    for (const path of ["/healthz", "/api/v1/project?project_id=x", "/nowhere"])
      statuses.push((await app.handle(new Request(`http://localhost${path}`))).status);
    expect(statuses).toEqual([200, 401, 404]);
    expect(noted).toBe(3);
  } finally {
    await runtime.close();
  }
});

test("the Bun host frees a released push's memory with a collection that keeps compiled code, and takes bodies whole", async () => {
  // Bun.shrink() would discard every compiled function before the 202 is written: the push's job
  // then compiled it all again (docs/benchmarks.md, "Push memory, seventh pass").
  const shrink = spyOn(Bun, "shrink");
  const gc = spyOn(Bun, "gc");
  try {
    bunHost.returnFreeMemory?.();
    expect(shrink).not.toHaveBeenCalled();
    expect(gc).toHaveBeenCalledWith(true);
  } finally {
    shrink.mockRestore();
    gc.mockRestore();
  }
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  try {
    const app = serverFor(runtime, config, () => {}, bunHost);
    const org = await runtime.parlance.admin.createOrg("Org");
    const key = await runtime.parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const body = JSON.stringify({ projectId: crypto.randomUUID(), language: "fr", content: "{}" });
    const request = new Request("http://localhost/api/v1/push", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        authorization: `Bearer ${key.key}`,
      },
      body,
    });
    let whole = 0;
    const arrayBuffer = request.arrayBuffer.bind(request);
    request.arrayBuffer = () => {
      whole++;
      return arrayBuffer();
    };
    expect((await app.handle(request)).status).toBe(404); // read whole, parsed: no such project
    expect(whole).toBe(1);
  } finally {
    await runtime.close();
  }
});

test("the collection at a large push's answer runs under light traffic only", async () => {
  // It pauses the event loop, as the collection after imports does: under a load of small requests
  // that pause would set their p99 (server/serve.ts, whenQuiet).
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, bunHost);
  let collections = 0;
  try {
    const app = serverFor(runtime, config, () => {}, {
      ...bunHost,
      returnFreeMemory: () => void collections++,
    });
    const org = await runtime.parlance.admin.createOrg("Org");
    const key = await runtime.parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const content = JSON.stringify({ a: "x".repeat(COLLECT_AFTER_BODY_BYTES) });
    const push = async () => {
      const request = new Request("http://localhost/api/v1/push", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ projectId: crypto.randomUUID(), language: "fr", content }),
      });
      expect((await app.handle(request)).status).toBe(404); // read, released: no such project
    };
    await push();
    expect(collections).toBe(1);
    for (let i = 0; i < QUIET_REQUESTS; i++) runtime.traffic.note(); // a busy server's last moments
    await push();
    expect(collections).toBe(1);
  } finally {
    await runtime.close();
  }
});

test("a push's reading collects the young generation as it reads, and a large job collects in full during its checks, COLLECTIONS_IN_CHECKS times, under light traffic only", async () => {
  // The request's peak was its parse, the job's its checks (docs/benchmarks.md, "Push memory,
  // ninth pass"): what the reader lets go of is freed while young, the rows handed over once planned.
  let young = 0;
  const full: string[] = [];
  let phase = "before";
  const host = {
    ...bunHost,
    collectYoung: () => void young++,
    collectGarbage: () => void full.push(phase),
  };
  const { runtime, parlance, app, org, project } = await servedProject(host);
  try {
    const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    parlance.on("job.completed", () => {
      phase = "completed";
    });
    const push = async (rows: number, busy = false) => {
      const content = JSON.stringify(
        Object.fromEntries(Array.from({ length: rows }, (_, i) => [`k${i}`, `value ${i} `.repeat(8)])),
      );
      const request = new Request("http://localhost/api/v1/push", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ projectId: project.id, language: "fr", content }),
      });
      [young, full.length, phase] = [0, 0, "before"];
      const answer = await app.handle(request);
      expect(answer.status).toBe(202);
      const youngWhileRead = young;
      // A busy server while the job runs: the full collection waits for lighter traffic.
      const noteBusy = () => {
        for (let i = 0; i < QUIET_REQUESTS; i++) runtime.traffic.note();
      };
      if (busy) noteBusy();
      const traffic = busy ? setInterval(noteBusy, 20) : undefined;
      const { jobId } = (await answer.json()) as { jobId: string };
      try {
        for (let waited = 0; (await parlance.storage.jobs.get(jobId))?.status !== "completed"; waited += 10) {
          expect(waited).toBeLessThan(30_000);
          await Bun.sleep(10);
        }
      } finally {
        clearInterval(traffic);
      }
      return { youngWhileRead, fullBeforeCompleted: full.filter((p) => p === "before").length };
    };
    // 25,000 rows (2.4 MB): read over several slices, planned as 25,000 writes (13 batches of
    // checks: collected before the 5th, 9th and 13th).
    const large = await push(LARGE_PLAN_WRITES + 5_000);
    expect(large.youngWhileRead).toBeGreaterThan(0);
    expect(large.fullBeforeCompleted).toBe(COLLECTIONS_IN_CHECKS);
    // Fewer writes than LARGE_PLAN_WRITES: no full collection before the checks.
    expect((await push(LARGE_PLAN_WRITES - 5_000)).fullBeforeCompleted).toBe(0);
    // Under traffic: none either, however large.
    const busy = await push(LARGE_PLAN_WRITES + 5_000, true);
    expect(busy.fullBeforeCompleted).toBe(0);
  } finally {
    await runtime.close();
  }
});

test("a push's reading collects the young generation once per READING_PACE_BYTES read, not by the clock", async () => {
  // A fast machine read 12 MB in a few 8 ms slices and, paced by the clock, collected once or
  // twice (docs/benchmarks.md, "Push memory, thirteenth pass").
  let young = 0;
  const { runtime, parlance, app, org, project } = await servedProject({
    ...bunHost,
    collectYoung: () => void young++,
  });
  try {
    const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const youngWhileRead = async (bytes: number) => {
      young = 0;
      expect((await app.handle(dryRunPushOf(bytes, key.key, project.id))).status).toBe(200);
      return young;
    };
    const large = await youngWhileRead(4.5 * READING_PACE_BYTES);
    expect(large).toBeGreaterThanOrEqual(3);
    expect(large).toBeLessThanOrEqual(4);
    expect(await youngWhileRead(0.8 * READING_PACE_BYTES)).toBe(0);
  } finally {
    await runtime.close();
  }
});

test("a large push's body is returned to the system before its content is read and at its answer; a refused push's only at its answer; under traffic at neither", async () => {
  // The listener's buffers, freed once the body is read, stayed resident into the reading, at a
  // point that varied from push to push (docs/benchmarks.md, "Push memory, thirteenth pass").
  const events: string[] = [];
  const host = {
    ...bunHost,
    collectYoung: () => void events.push("young"),
    returnFreeMemory: () => void events.push("free"),
  };
  const { runtime, parlance, app, org, project } = await servedProject(host);
  try {
    const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const large = 1.2 * READING_PACE_BYTES;
    expect((await app.handle(dryRunPushOf(large, key.key, project.id))).status).toBe(200);
    expect(events).toEqual(["free", "young", "free"]);
    // Refused before its reading (no such project): nothing is read, so nothing is returned first.
    events.length = 0;
    expect((await app.handle(dryRunPushOf(large, key.key, crypto.randomUUID()))).status).toBe(404);
    expect(events).toEqual(["free"]);
    // A body under COLLECT_AFTER_BODY_BYTES: neither.
    events.length = 0;
    expect((await app.handle(dryRunPushOf(COLLECT_AFTER_BODY_BYTES / 2, key.key, project.id))).status).toBe(
      200,
    );
    expect(events).toEqual([]);
    // A busy server: the young generation only.
    events.length = 0;
    for (let i = 0; i < QUIET_REQUESTS; i++) runtime.traffic.note();
    expect((await app.handle(dryRunPushOf(large, key.key, project.id))).status).toBe(200);
    expect(events).toEqual(["young"]);
  } finally {
    await runtime.close();
  }
});

test("the collection after an import is dropped when a push's answer collected after the import ended", async () => {
  // The next push's own collection freed the same garbage: a second one would only pause it
  // (docs/benchmarks.md, "Push memory between pushes, twelfth pass").
  let afterImports = 0;
  let atAnswers = 0;
  const host = {
    ...bunHost,
    collectGarbage: () => void afterImports++,
    returnFreeMemory: () => void atAnswers++,
  };
  const { runtime, parlance, app, org, project } = await servedProject(host);
  try {
    const importOne = async (key: string) => {
      await parlance
        .as(org.id)
        .push({ projectId: project.id, language: "fr", content: JSON.stringify({ [key]: "v" }) });
      await parlance.idle();
    };
    // Alone, the import's collection runs once traffic has been light for QUIET_MS.
    await importOne("a");
    await Bun.sleep(500);
    expect(afterImports).toBe(1);
    // A large push answered (and collected at its answer) after the next import ended.
    await importOne("b");
    const apiKey = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const content = JSON.stringify({ a: "x".repeat(COLLECT_AFTER_BODY_BYTES) });
    const answer = await app.handle(
      new Request("http://localhost/api/v1/push", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey.key}` },
        body: JSON.stringify({ projectId: crypto.randomUUID(), language: "fr", content }),
      }),
    );
    expect(answer.status).toBe(404);
    expect(atAnswers).toBe(1); // at its answer only: a refused push's content is never read
    await Bun.sleep(1_500);
    expect(afterImports).toBe(1);
  } finally {
    await runtime.close();
  }
});

/** `serve`'s app over a started runtime on an in-memory SQLite store, with one project (en, fr). */
async function servedProject(host: typeof bunHost) {
  const config = readConfig({ PARLANCE_DATABASE_URL: "sqlite::memory:" });
  const runtime = await openRuntime(config, () => {}, host);
  const { parlance } = runtime;
  await parlance.start();
  const app = serverFor(runtime, config, () => {}, host);
  const org = await parlance.admin.createOrg("Org");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "P",
    baseLanguage: "en",
    languages: ["en", "fr"],
  });
  return { runtime, parlance, app, org, project };
}

/** A dry-run push into `fr` of about `bytes` of content: rows of 200-character values. */
function dryRunPushOf(bytes: number, key: string, projectId: string): Request {
  const rows = Math.ceil(bytes / 220);
  const content = JSON.stringify(
    Object.fromEntries(Array.from({ length: rows }, (_, i) => [`k${i}`, "v".repeat(200)])),
  );
  return new Request("http://localhost/api/v1/push", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ projectId, language: "fr", content, dryRun: true }),
  });
}

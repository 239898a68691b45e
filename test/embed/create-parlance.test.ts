/**
 * The package root's createParlance, as a host application uses it: defaults for every port but
 * storage, the app acting through `as(orgId)` without an API key, typed events, and several
 * instances side by side in one process.
 */
import { describe, expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import type { JobQueue, ParlanceEvents } from "../../core/index.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

async function world(options: Partial<Parameters<typeof createParlance>[0]> = {}) {
  const parlance = createParlance({ storage: createMemoryStorage(), ...options });
  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: ["fr"],
  });
  return { parlance, org, project, app: parlance.as(org.id, "acme-backend") };
}

/** A queue that runs nothing until told: lets a test change the world between push and import. */
function heldQueue(): JobQueue & { release(): Promise<void> } {
  const tasks: (() => Promise<void>)[] = [];
  return {
    add: (task) => void tasks.push(task),
    onIdle: async () => {},
    close: async () => {},
    async release() {
      for (const task of tasks.splice(0)) await task();
    },
  };
}

describe("createParlance({ storage }) with defaults", () => {
  test("the app pushes, pulls and reads coverage for an organization without an API key", async () => {
    const { parlance, project, app } = await world();
    await app.push({ projectId: project.id, language: "en", content: '{"home":{"title":"Welcome"}}' });
    const accepted = await app.push({
      projectId: project.id,
      language: "fr",
      content: '{"home.title":"Bienvenue"}',
    });
    await parlance.idle();
    expect(accepted.kind).toBe("accepted");
    if (accepted.kind === "accepted")
      expect((await app.getJob(accepted.accepted.jobId)).status).toBe("completed");
    const file = await app.pull({ projectId: project.id, language: "fr" });
    expect(JSON.parse(file.body)).toEqual({ "home.title": "Bienvenue" });
    const report = await app.coverage(project.id);
    expect(report.locales.find((l) => l.language === "fr")?.coveragePercent).toBe(100);
    await parlance.close();
  });

  test("the app is confined to its organization: another one's project is absent", async () => {
    const { parlance, project } = await world();
    const other = await parlance.admin.createOrg("Other");
    const err = await parlance
      .as(other.id)
      .pull({ projectId: project.id, language: "fr" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "ParlanceError", code: "not_found" });
  });
});

describe("events", () => {
  test("an import emits translations.changed then job.completed; a push that changes nothing only the latter", async () => {
    const heard: { name: string; event: unknown }[] = [];
    const { parlance, org, project, app } = await world({ clock: createFixedClock("2026-03-01T10:00:00Z") });
    for (const name of ["job.completed", "job.failed", "translations.changed"] as const)
      parlance.on(name, (event) => void heard.push({ name, event }));

    const first = await app.push({ projectId: project.id, language: "fr", content: '{"a":"A","b":"B"}' });
    await parlance.idle();
    await app.push({ projectId: project.id, language: "fr", content: '{"a":"A","b":"B"}' });
    await parlance.idle();

    const jobId = first.kind === "accepted" ? first.accepted.jobId : "";
    const where = { orgId: org.id, projectId: project.id, language: "fr", at: "2026-03-01T10:00:00.000Z" };
    expect(heard.map((h) => h.name)).toEqual(["translations.changed", "job.completed", "job.completed"]);
    expect(heard[0]?.event).toEqual({
      ...where,
      created: 2,
      updated: 0,
      deleted: 0,
      cause: { kind: "import", jobId },
    } satisfies ParlanceEvents["translations.changed"]);
    expect(heard[1]?.event).toEqual({ ...where, jobId, summary: { created: 2, updated: 0 } });
    expect(heard[2]?.event).toMatchObject({ summary: { created: 0, updated: 0 } });
  });

  test("a job that cannot run emits job.failed with the message GET /jobs shows", async () => {
    const queue = heldQueue();
    const { parlance, project, app } = await world({ queue });
    const failed: ParlanceEvents["job.failed"][] = [];
    parlance.on("job.failed", (e) => void failed.push(e));
    const pushed = await app.push({ projectId: project.id, language: "fr", content: '{"a":"A"}' });
    await parlance.admin.deleteProject(project.id);
    await queue.release();
    const jobId = pushed.kind === "accepted" ? pushed.accepted.jobId : "";
    expect(failed).toEqual([
      expect.objectContaining({
        jobId,
        language: "fr",
        message: "The project was deleted before the import ran",
      }),
    ]);
  });

  test("a listener that throws is logged and neither stops the others nor fails the job", async () => {
    const logged: unknown[] = [];
    const { parlance, project, app } = await world({
      log: (_level, message, fields) => logged.push({ message, fields }),
    });
    const heard: string[] = [];
    parlance.on("job.completed", () => {
      throw new Error("listener bug");
    });
    parlance.on("job.completed", async () => {
      throw new Error("async listener bug");
    });
    const stop = parlance.on("job.completed", (e) => void heard.push(e.jobId));
    const pushed = await app.push({ projectId: project.id, language: "fr", content: '{"a":"A"}' });
    await parlance.idle();
    await Promise.resolve();
    if (pushed.kind === "accepted")
      expect((await app.getJob(pushed.accepted.jobId)).status).toBe("completed");
    expect(heard).toHaveLength(1);
    expect(logged).toEqual([
      { message: "event listener failed", fields: { event: "job.completed", error: "Error: listener bug" } },
      {
        message: "event listener failed",
        fields: { event: "job.completed", error: "Error: async listener bug" },
      },
    ]);
    stop();
    await app.push({ projectId: project.id, language: "fr", content: '{"a":"B"}' });
    await parlance.idle();
    expect(heard).toHaveLength(1);
  });
});

describe("several instances in one process", () => {
  test("two instances with different stores, clocks and options do not see each other", async () => {
    const a = await world({ clock: createFixedClock("2026-01-01T00:00:00Z"), anonRateLimit: 1 });
    const b = await world({ clock: createFixedClock("2030-06-15T12:00:00Z"), anonRateLimit: 5 });
    const heardByA: string[] = [];
    a.parlance.on("job.completed", (e) => void heardByA.push(e.jobId));

    await b.app.push({ projectId: b.project.id, language: "fr", content: '{"only":"in b"}' });
    await b.parlance.idle();
    expect(heardByA).toEqual([]);
    expect(await a.parlance.storage.translations.countByOrg(a.org.id)).toBe(0);
    const pulled = JSON.parse((await b.app.pull({ projectId: b.project.id, language: "fr" })).body);
    expect(pulled).toEqual({ only: "in b" });
    expect((await a.parlance.as(b.org.id).listProjects()).length).toBe(0);

    expect(a.parlance.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(b.parlance.now().toISOString()).toBe("2030-06-15T12:00:00.000Z");
    const anonymous = (p: typeof a.parlance) => p.admit({ authorization: null, address: () => "10.0.0.1" });
    expect((await anonymous(a.parlance)).rate.limit).toBe(1);
    expect((await anonymous(a.parlance)).limited?.code).toBe("rate_limited");
    expect((await anonymous(b.parlance)).rate.limit).toBe(5);
    expect((await anonymous(b.parlance)).limited).toBeNull();
  });

  test("creating instances changes nothing process-wide", async () => {
    const before = Object.getOwnPropertyNames(globalThis).sort();
    const parlance = createParlance({ storage: createMemoryStorage() });
    await parlance.admin.createOrg("x");
    await parlance.close();
    expect(Object.getOwnPropertyNames(globalThis).sort()).toEqual(before);
  });
});

test("without a storage, or with a promise of one, createParlance says what to pass", () => {
  const untyped = createParlance as (options: unknown) => unknown;
  expect(() => untyped({})).toThrow("createParlance needs { storage }: createMemoryStorage()");
  expect(() => untyped({ storage: Promise.resolve(createMemoryStorage()) })).toThrow(
    "await createPostgresStorage(sql) first",
  );
});

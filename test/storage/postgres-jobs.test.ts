import { expect, test } from "bun:test";
import type { Storage } from "../../core/ports.ts";
import type { Job } from "../../core/types.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();

const job = (orgId: string, projectId: string, n: number): Job => ({
  id: `${projectId}-job-${n}`,
  orgId,
  projectId,
  type: "import",
  status: "pending",
  runId: crypto.randomUUID(),
  summary: { created: 0, updated: 0 },
  errorMessage: null,
  payload: { language: "en", importMode: "merge", status: "draft", content: new TextEncoder().encode("{}") },
  leaseUntil: null,
  attempts: 0,
  createdAt: at(0),
  updatedAt: at(0),
});

if (await postgresReachable()) {
  test("instances on separate clients claim every job once, each project's jobs in order", async () => {
    const schema = await createTestSchema();
    try {
      // Three instances start at once: they also race their migrations.
      const instances: Storage[] = await Promise.all(
        [1, 2, 3].map(() => createPostgresStorage(schema.connect(3))),
      );
      const [first] = instances;
      if (!first) throw new Error("no instance");
      await first.orgs.create({ id: "org", name: "Org", maxTranslations: null, createdAt: at(0) });
      const projects = ["p1", "p2", "p3", "p4"];
      for (const p of projects) {
        await first.projects.create({
          id: p,
          orgId: "org",
          name: p,
          baseLanguage: "en",
          languages: ["en"],
          deletedAt: null,
          createdAt: at(0),
        });
      }
      // Interleaved across projects, so the oldest job overall is often blocked by its project.
      for (let n = 0; n < 5; n++) for (const p of projects) await first.jobs.create(job("org", p, n));

      const claimed: string[] = [];
      const worker = async (s: Storage) => {
        for (;;) {
          const runId = crypto.randomUUID();
          const j = await s.jobs.claimNext(runId, at(1), at(10));
          if (!j) return;
          claimed.push(j.id);
          const n = Number(j.id.split("-job-")[1]);
          // Older jobs of the project finished before this one could be claimed.
          for (let older = 0; older < n; older++) {
            expect((await s.jobs.get(`${j.projectId}-job-${older}`))?.status).toBe("completed");
          }
          const commit = {
            projectId: j.projectId,
            language: "en",
            writes: [],
            deleteIds: [],
            summary: { created: 0, updated: 0 },
          };
          expect(await s.jobs.complete(j.id, runId, commit, at(2))).toBe(true);
        }
      };
      // Two workers per instance.
      await Promise.all([...instances, ...instances].map(worker));
      expect(claimed.toSorted()).toEqual(
        projects.flatMap((p) => [0, 1, 2, 3, 4].map((n) => `${p}-job-${n}`)).toSorted(),
      );
    } finally {
      await schema.drop();
    }
  });

  test("ten racing claims of one job: exactly one wins", async () => {
    const schema = await createTestSchema();
    try {
      const instances = await Promise.all([1, 2].map(() => createPostgresStorage(schema.connect(5))));
      const [first] = instances;
      if (!first) throw new Error("no instance");
      await first.orgs.create({ id: "org", name: "Org", maxTranslations: null, createdAt: at(0) });
      await first.projects.create({
        id: "p",
        orgId: "org",
        name: "p",
        baseLanguage: "en",
        languages: ["en"],
        deletedAt: null,
        createdAt: at(0),
      });
      await first.jobs.create(job("org", "p", 0));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => instances[i % 2]?.jobs.claimNext(`run-${i}`, at(1), at(10))),
      );
      const winners = results.filter((r) => r);
      expect(winners).toHaveLength(1);
      expect((await first.jobs.get("p-job-0"))?.runId).toBe(winners[0]?.runId ?? "");
    } finally {
      await schema.drop();
    }
  });
}

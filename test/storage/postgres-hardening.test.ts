/**
 * Postgres specifics of issue 10: migration 3 converts a database written by earlier releases, and
 * job leases follow the database's clock whatever the instances' clocks say.
 */
import { expect, test } from "bun:test";
import type { Sql } from "postgres";
import { createPostgresRateLimiter } from "../../adapters/postgres-rate-limiter.ts";
import { isParlanceError } from "../../core/errors.ts";
import type { Job } from "../../core/types.ts";
import { type Migration, runMigrations } from "../../storage/migrations.ts";
import { createPostgresStorage, migratePostgres, postgresMigrations } from "../../storage/postgres/index.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

const T = "2026-01-01T00:00:00.000Z";

/** Applies the migrations up to `version` only, as an earlier release did. */
async function migrateUpTo(sql: Sql, version: number): Promise<void> {
  await sql`CREATE TABLE parlance_migrations (version integer PRIMARY KEY, name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now())`;
  const list: Migration[] = postgresMigrations.filter((m) => m.version <= version);
  await runMigrations(
    {
      applied: async () => [],
      async apply(m) {
        await sql.unsafe(m.sql).simple();
        await sql`INSERT INTO parlance_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      },
    },
    list,
  );
}

const pendingJob = (id: string, over: Partial<Job> = {}): Job => ({
  id,
  orgId: "o",
  projectId: "p",
  type: "import",
  status: "pending",
  runId: "r0",
  summary: { created: 0, updated: 0 },
  errorMessage: null,
  payload: {
    language: "en",
    importMode: "merge",
    status: "draft",
    content: new TextEncoder().encode('{"a":"b"}'),
  },
  leaseUntil: null,
  attempts: 0,
  createdAt: T,
  updatedAt: T,
  ...over,
});

const iso = (ms: number) => new Date(ms).toISOString();

if (await postgresReachable()) {
  test("migration 3 keeps a release-2 database's rows and makes keys unique by SHA-256", async () => {
    const schema = await createTestSchema();
    try {
      const sql = schema.connect(2);
      await migrateUpTo(sql, 2);
      const longKey = "長".repeat(1000);
      await sql`INSERT INTO organizations (id, name, created_at) VALUES ('o', 'Org', ${T})`;
      await sql`INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
                VALUES ('p', 'o', 'P', 'en', ${sql.array(["en"])}, ${T})`;
      await sql`INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
                VALUES ('t1', 'p', 'en', 'home.title', 'Welcome', 'approved', ${T}),
                       ('t2', 'p', 'en', ${longKey}, 'long', 'draft', ${T})`;
      await sql`INSERT INTO environment_overrides (project_id, environment, language, key, value)
                VALUES ('p', 'prod', 'en', 'home.title', 'Hi')`;
      await sql`INSERT INTO jobs (id, org_id, project_id, type, status, run_id, summary, payload, created_at, updated_at, content)
                VALUES ('j', 'o', 'p', 'import', 'pending', 'r', '{"created":0,"updated":0}',
                        '{"language":"en","importMode":"merge","status":"approved"}', ${T}, ${T}, '{"home":{"title":"Hello"}}')`;

      expect((await migratePostgres(sql))[0]).toBe(3);
      const indexes = await sql`SELECT indexname FROM pg_indexes WHERE schemaname = ${schema.name}`;
      const names = indexes.map((r) => String(r.indexname));
      expect(names).toContain("translations_key");
      expect(names).not.toContain("translations_identity");
      expect(names).not.toContain("environment_overrides_identity");

      const storage = await createPostgresStorage(sql);
      // The job written before attempts were counted runs and counts from there.
      const claimed = await storage.jobs.claimNext("run", T, iso(Date.parse(T) + 60_000));
      expect(claimed).toMatchObject({
        id: "j",
        attempts: 1,
        payload: { content: new TextEncoder().encode('{"home":{"title":"Hello"}}') },
      });
      // Existing rows are found by the new index: updated in place, ids kept.
      const commit = {
        projectId: "p",
        language: "en",
        writes: [
          { id: "new1", key: "home.title", value: "Hello", status: "approved" as const },
          { id: "new2", key: longKey, value: "longer", status: "approved" as const },
        ],
        deleteIds: [],
        summary: { created: 0, updated: 2 },
      };
      expect(await storage.jobs.complete("j", "run", commit, T)).toBe(true);
      const rows = await storage.translations.listForExport("p", "en", null);
      expect(rows.map((r) => [r.id, r.value])).toEqual([
        ["t1", "Hello"],
        ["t2", "longer"],
      ]);
      await storage.environments.set({
        projectId: "p",
        environment: "prod",
        language: "en",
        key: "home.title",
        value: "Hey",
      });
      expect(await storage.environments.list("p", "prod", "en")).toEqual(new Map([["home.title", "Hey"]]));
      await storage.close();
    } finally {
      await schema.drop();
    }
  });

  test("leases run on the database's clock, whatever time each instance believes it is", async () => {
    const schema = await createTestSchema();
    try {
      const [a, b] = await Promise.all([1, 2].map(() => createPostgresStorage(schema.connect(2))));
      if (!a || !b) throw new Error("no instances");
      await a.orgs.create({ id: "o", name: "Org", maxTranslations: null, createdAt: T });
      await a.projects.create({
        id: "p",
        orgId: "o",
        name: "P",
        baseLanguage: "en",
        languages: ["en"],
        deletedAt: null,
        createdAt: T,
      });
      await a.jobs.create(pendingJob("j"));
      const sql = schema.connect(1);
      const dbNow = async () => Date.parse(String((await sql`SELECT now()::text AS t`)[0]?.t));

      // Instance A's clock is a year behind: its 30-second lease still lasts 30 s of database time.
      const slow = Date.parse("2025-01-01T00:00:00.000Z");
      const claimed = await a.jobs.claimNext("run-a", iso(slow), iso(slow + 30_000));
      const leaseEnd = Date.parse(claimed?.leaseUntil ?? "");
      const now = await dbNow();
      expect(leaseEnd).toBeGreaterThan(now + 25_000);
      expect(leaseEnd).toBeLessThanOrEqual(now + 30_000);

      // Instance B's clock is a day ahead: by its time the lease ended long ago; by the database's
      // it has not, so B does not take the job over.
      const fast = Date.now() + 86_400_000;
      expect(await b.jobs.claimNext("run-b", iso(fast), iso(fast + 30_000))).toBeNull();

      // A renews with its own (wrong) clock: again 30 s from the database's now.
      expect(await a.jobs.renewLease("j", "run-a", iso(slow + 100), iso(slow))).toBe(true);
      await Bun.sleep(300);
      // The 100 ms lease ended by the database's clock: B, a day ahead, takes over, and so would
      // an instance a year behind (which by its own clock would wait a year).
      const taken = await b.jobs.claimNext("run-b", iso(slow - 86_400_000), iso(slow - 86_400_000 + 30_000));
      expect(taken).toMatchObject({ id: "j", runId: "run-b", attempts: 2 });
      expect(await a.jobs.renewLease("j", "run-a", iso(slow + 30_000), iso(slow))).toBe(false);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await schema.drop();
    }
  });

  test("a client that lost its database rejects with ParlanceError unavailable; a bug stays a bug", async () => {
    const schema = await createTestSchema();
    try {
      const sql = schema.connect(2);
      const storage = await createPostgresStorage(sql);
      const limiter = createPostgresRateLimiter(sql);
      // A query the database refuses is not an outage: it keeps its own error.
      const broken = await storage.jobs.create(pendingJob("j", { orgId: "missing" })).catch((e) => e);
      expect(isParlanceError(broken)).toBe(false);
      await sql.end({ timeout: 1 });
      const failures = await Promise.all([
        storage.ping().catch((e) => e),
        storage.keys.findByHash("x").catch((e) => e),
        storage.jobs.claimNext("r", T, T).catch((e) => e),
        limiter.consume("k", 1, 1000, 0).catch((e) => e),
      ]);
      for (const e of failures) {
        expect(isParlanceError(e) && e.code).toBe("unavailable");
        expect((e as Error).message).toBe("Storage is unavailable; retry shortly");
      }
    } finally {
      await schema.drop();
    }
  });
}

import { expect, test } from "bun:test";
import postgres from "postgres";
import { createPostgresRateLimiter } from "../../adapters/postgres-rate-limiter.ts";
import { migratePostgres } from "../../storage/postgres/index.ts";
import { runRateLimiterContracts } from "../contract/rate-limiter.contract.ts";
import { createTestSchema, POSTGRES_URL, postgresReachable } from "./postgres-setup.ts";

const HOUR = 3_600_000;

if (await postgresReachable()) {
  runRateLimiterContracts(
    "postgres limiter",
    async () => {
      const schema = await createTestSchema();
      await migratePostgres(schema.connect(1));
      return {
        limiter: createPostgresRateLimiter(schema.connect(4)),
        // Another instance on its own client: the windows are in the database.
        reopen: async () => createPostgresRateLimiter(schema.connect(2)),
        teardown: () => schema.drop(),
      };
    },
    test,
  );

  test("flush deletes windows that ended a minute ago or more, at most once a minute", async () => {
    const schema = await createTestSchema();
    try {
      const sql = schema.connect(2);
      await migratePostgres(sql);
      const limiter = createPostgresRateLimiter(sql);
      const t0 = 1_767_225_600_000;
      const buckets = async () =>
        (await sql`SELECT bucket FROM rate_limits ORDER BY bucket`).map((r) => String(r.bucket));
      for (let i = 0; i < 20; i++) await limiter.consume(`addr:${i}`, 5, HOUR, t0);
      await limiter.consume("late", 5, HOUR, t0 + HOUR - 1);
      await limiter.flush();
      expect((await buckets()).length).toBe(21);
      // Ended, but within the grace minute: kept (and the next prune is a minute of requests away).
      await limiter.consume("now", 5, HOUR, t0 + HOUR + 30_000);
      await limiter.flush();
      expect((await buckets()).length).toBe(22);
      await limiter.consume("now", 5, HOUR, t0 + HOUR + 60_000);
      await limiter.flush();
      expect(await buckets()).toEqual(["late", "now"]);
      // A pruned bucket starts afresh.
      expect(await limiter.consume("addr:3", 5, HOUR, t0 + HOUR + 60_001)).toMatchObject({ remaining: 4 });
    } finally {
      await schema.drop();
    }
  });

  test("fixed window from the first request; refusals are not counted; resets when it ends", async () => {
    const schema = await createTestSchema();
    try {
      const sql = schema.connect(1);
      await migratePostgres(sql);
      const limiter = createPostgresRateLimiter(sql);
      const t0 = 1_767_225_600_000;
      expect(await limiter.consume("k", 2, HOUR, t0)).toEqual({
        allowed: true,
        limit: 2,
        remaining: 1,
        resetAt: t0 + HOUR,
      });
      expect(await limiter.consume("k", 2, HOUR, t0 + 10)).toEqual({
        allowed: true,
        limit: 2,
        remaining: 0,
        resetAt: t0 + HOUR,
      });
      expect(await limiter.consume("k", 2, HOUR, t0 + 20)).toEqual({
        allowed: false,
        limit: 2,
        remaining: 0,
        resetAt: t0 + HOUR,
      });
      // A raised limit counts from the requests allowed so far, not the refused one.
      expect(await limiter.consume("k", 3, HOUR, t0 + 30)).toEqual({
        allowed: true,
        limit: 3,
        remaining: 0,
        resetAt: t0 + HOUR,
      });
      expect(await limiter.consume("other", 2, HOUR, t0 + 30)).toMatchObject({ allowed: true, remaining: 1 });
      const later = t0 + HOUR;
      expect(await limiter.consume("k", 2, HOUR, later)).toEqual({
        allowed: true,
        limit: 2,
        remaining: 1,
        resetAt: later + HOUR,
      });
      await limiter.flush();
    } finally {
      await schema.drop();
    }
  });

  test("2L concurrent requests from several instances: exactly L are allowed", async () => {
    const schema = await createTestSchema();
    try {
      await migratePostgres(schema.connect(1));
      // Four limiters on four clients of four connections each: sixteen sessions racing.
      const limiters = Array.from({ length: 4 }, () => createPostgresRateLimiter(schema.connect(4)));
      const limit = 100;
      const now = 1_767_225_600_000;
      const decisions = await Promise.all(
        Array.from({ length: 2 * limit }, (_, i) =>
          limiters[i % limiters.length]?.consume("shared", limit, HOUR, now),
        ),
      );
      const allowed = decisions.filter((d) => d?.allowed);
      expect(allowed).toHaveLength(limit);
      expect(allowed.map((d) => d?.remaining).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: limit }, (_, i) => i),
      );
      expect(new Set(decisions.map((d) => d?.resetAt))).toEqual(new Set([now + HOUR]));
    } finally {
      await schema.drop();
    }
  });

  test("quota is leased in blocks: a busy bucket costs few round trips, and unused quota comes back at flush", async () => {
    const schema = await createTestSchema();
    let statements = 0;
    const counted = postgres(POSTGRES_URL, {
      max: 2,
      connection: { search_path: schema.name },
      onnotice: () => {},
      debug: () => {
        statements++;
      },
    });
    try {
      await migratePostgres(schema.connect(1));
      const a = createPostgresRateLimiter(counted);
      const b = createPostgresRateLimiter(schema.connect(2));
      const limit = 1_000;
      const t0 = 1_767_225_600_000;
      for (let i = 0; i < 200; i++) expect((await a.consume("busy", limit, HOUR, t0 + i)).allowed).toBe(true);
      expect(statements).toBeLessThan(20);
      // B gets what A has not taken; A still holds part of its last block.
      const drain = async (from: number) => {
        let allowed = 0;
        while ((await b.consume("busy", limit, HOUR, from + allowed)).allowed) allowed++;
        return allowed;
      };
      const second = await drain(t0 + 300);
      const held = limit - 200 - second;
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(limit / 8);
      await a.flush();
      const third = await drain(t0 + 2_000);
      expect(third).toBe(held);
    } finally {
      await counted.end({ timeout: 5 });
      await schema.drop();
    }
  });
}

/**
 * A rate limiter shared by every instance on one Postgres database, exact under concurrency: each
 * consume is one INSERT … ON CONFLICT DO UPDATE, so Postgres serializes the requests of a bucket on
 * its row. Uses the `rate_limits` table of the Postgres migrations (run createPostgresStorage or
 * migratePostgres on the same client's schema first). Limits are at least 1 (API keys allow
 * 1..10000), so a bucket's first request is always allowed. Buckets stay as one row each, reused
 * when their window ends.
 */
import type { Sql } from "postgres";
import type { RateDecision, RateLimiter } from "../core/ports.ts";

export function createPostgresRateLimiter(sql: Sql): RateLimiter {
  return {
    async consume(bucket, limit, windowMs, nowMs) {
      // Every SET expression sees the row as it was, so `allowed` records this request's verdict:
      // a window that ended starts afresh at this request; otherwise the request counts only
      // while the window has room, and a refused one leaves count and reset_at unchanged.
      const [row] = await sql`
        INSERT INTO rate_limits AS r (bucket, count, reset_at, allowed)
        VALUES (${bucket}, 1, ${nowMs + windowMs}, true)
        ON CONFLICT (bucket) DO UPDATE SET
          count = CASE WHEN r.reset_at <= ${nowMs} THEN 1
                       WHEN r.count < ${limit} THEN r.count + 1
                       ELSE r.count END,
          reset_at = CASE WHEN r.reset_at <= ${nowMs} THEN ${nowMs + windowMs}::bigint ELSE r.reset_at END,
          allowed = r.reset_at <= ${nowMs} OR r.count < ${limit}
        RETURNING count, reset_at, allowed`;
      if (!row) throw new Error("rate_limits upsert returned no row");
      const allowed = row.allowed === true;
      const count = Number(row.count);
      const decision: RateDecision = {
        allowed,
        limit,
        remaining: allowed ? Math.max(0, limit - count) : 0,
        resetAt: Number(row.reset_at),
      };
      return decision;
    },
    // Nothing is held in memory: every decision is already in the database.
    async flush() {},
  };
}

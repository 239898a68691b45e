/**
 * A rate limiter shared by every instance on one Postgres database, exact under concurrency: each
 * consume is one INSERT … ON CONFLICT DO UPDATE, so Postgres serializes the requests of a bucket on
 * its row. Uses the `rate_limits` table of the Postgres migrations (run createPostgresStorage or
 * migratePostgres on the same client's schema first). Limits are at least 1 (API keys allow
 * 1..10000), so a bucket's first request is always allowed. A bucket is one row, reused when its
 * window ends; `flush()` deletes the rows of windows that ended, so one-off client addresses do not
 * make the table grow forever.
 */
import type { Sql } from "postgres";
import type { RateDecision, RateLimiter } from "../core/ports.ts";
import { withUnavailable } from "../storage/postgres/unavailable.ts";

export interface PostgresRateLimiterOptions {
  /** Least time between two prunes of ended windows, in request time (default one minute). */
  pruneEveryMs?: number;
}

/**
 * A window is deleted only this long after it ended, so an instance whose clock runs a little
 * behind still finds the window it is counting in.
 */
const PRUNE_GRACE_MS = 60_000;

export function createPostgresRateLimiter(
  sql: Sql,
  options: PostgresRateLimiterOptions = {},
): RateLimiter & { prune(nowMs: number): Promise<number> } {
  const pruneEveryMs = options.pruneEveryMs ?? 60_000;
  // The limiter reads no clock: pruning goes by the latest request time it was given.
  let latestMs = Number.NEGATIVE_INFINITY;
  let prunedAtMs = Number.NEGATIVE_INFINITY;

  const prune = async (nowMs: number): Promise<number> => {
    prunedAtMs = nowMs;
    // A row a concurrent consume is restarting is re-checked after its lock: then it is kept.
    const result = await sql`DELETE FROM rate_limits WHERE reset_at <= ${nowMs - PRUNE_GRACE_MS}`;
    return result.count;
  };

  // A database that cannot be reached rejects with ParlanceError "unavailable" (503), as the store does.
  return withUnavailable({
    async consume(bucket: string, limit: number, windowMs: number, nowMs: number) {
      if (nowMs > latestMs) latestMs = nowMs;
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
    // Every decision is already in the database; what is left to do is dropping ended windows.
    async flush() {
      if (latestMs - prunedAtMs >= pruneEveryMs) await prune(latestMs);
    },
    prune,
  });
}

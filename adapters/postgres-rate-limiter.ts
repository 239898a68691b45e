/**
 * A rate limiter shared by every instance on one Postgres database, exact across them: never more
 * than the limit admitted in a window, counting every instance. A bucket's window is one row of
 * `rate_limits` (migrations 1, 3 and 10; run createPostgresStorage or migratePostgres on the same
 * client's schema first) whose `count` is what the instances have taken from the window: requests
 * admitted plus quota leased and not used yet. An instance takes quota in blocks (a lease), one
 * atomic `INSERT … ON CONFLICT DO UPDATE` that never takes the count past the limit, and then
 * admits requests from its block in memory with no round trip. A lease asks for what the requests
 * waiting for it need, plus about a second of the bucket's recent traffic, but never more than an
 * eighth of what the window has left: near the limit every request goes to the database, and the
 * quota a lease holds back from other instances stays small. `flush()` gives unused quota back and
 * deletes ended windows. An instance that dies holding a lease loses that quota for the rest of
 * its window (at most MAX_LEASE requests, and an eighth of what was left): the limit errs on the
 * side of refusing, never admitting. Limits are at least 1 (API keys allow 1..10000).
 *
 * Each admitted request has a slot, its place in the window (1 … limit), and reports
 * `remaining = limit − slot`: on one instance that is the exact count down; across instances every
 * slot is handed out once, so racing requests see each value of `remaining` once.
 */
import type { Sql } from "postgres";
import type { RateDecision, RateLimiter } from "../core/ports.ts";
import { outageGateOf } from "../storage/postgres/outage-gate.ts";
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
/** Most requests one lease takes ahead of need. */
export const MAX_LEASE = 1_000;
/** A lease takes ahead at most 1/SHARE of what the window has left. */
const SHARE = 8;
/** A lease aims to last this long at the bucket's recent rate. */
const LEASE_MS = 1_000;
/** A bucket with no lease is forgotten (with its recent rate) this long after its last lease. */
const FORGET_AFTER_MS = 10_000;

/**
 * $1 bucket, $2 limit, $3 now, $4 window, $5 requests waiting, $6 wanted ahead, $7 the grant when
 * the row is new. Every SET expression sees the row as it was; a window that ended starts afresh.
 */
const LEASE = `
INSERT INTO rate_limits AS r (bucket, count, reset_at, allowed, granted)
VALUES ($1, $7::int, $3::bigint + $4::bigint, $7::int > 0, $7::int)
ON CONFLICT (bucket) DO UPDATE SET
  count = CASE WHEN r.reset_at <= $3::bigint THEN 0 ELSE r.count END + {grant},
  reset_at = CASE WHEN r.reset_at <= $3::bigint THEN $3::bigint + $4::bigint ELSE r.reset_at END,
  granted = {grant},
  allowed = {grant} > 0
RETURNING count, reset_at, granted`.replaceAll(
  "{grant}",
  `LEAST({left}, GREATEST($5::int, LEAST($6::int, {left} / ${SHARE})))`.replaceAll(
    "{left}",
    "(CASE WHEN r.reset_at <= $3::bigint THEN $2::int ELSE GREATEST($2::int - r.count, 0) END)",
  ),
);

/** The grant of a lease on a window with `left` requests to give (as LEASE computes it). */
const grantOf = (left: number, need: number, ahead: number) =>
  Math.min(left, Math.max(need, Math.min(ahead, Math.floor(left / SHARE))));

interface Waiter {
  limit: number;
  windowMs: number;
  nowMs: number;
  resolve(decision: RateDecision): void;
  reject(error: unknown): void;
}

interface Bucket {
  /** Slots `next` … `end` of the window ending at `resetAt` are this instance's to hand out. */
  lease: { next: number; end: number; resetAt: number } | null;
  queue: Waiter[];
  leasing: boolean;
  /** When the last lease was granted (request time) and how many it has served. */
  leasedAt: number;
  served: number;
}

export function createPostgresRateLimiter(
  sql: Sql,
  options: PostgresRateLimiterOptions = {},
): RateLimiter & { prune(nowMs: number): Promise<number> } {
  const pruneEveryMs = options.pruneEveryMs ?? 60_000;
  const buckets = new Map<string, Bucket>();
  // The limiter reads no clock: pruning goes by the latest request time it was given.
  let latestMs = Number.NEGATIVE_INFINITY;
  let prunedAtMs = Number.NEGATIVE_INFINITY;

  const prune = async (nowMs: number): Promise<number> => {
    prunedAtMs = nowMs;
    // A row a concurrent consume is restarting is re-checked after its lock: then it is kept.
    const result = await sql`DELETE FROM rate_limits WHERE reset_at <= ${nowMs - PRUNE_GRACE_MS}`;
    return result.count;
  };

  /** A decision from the bucket's lease, or null when the lease cannot decide (none, spent, ended). */
  const fromLease = (b: Bucket, limit: number, nowMs: number): RateDecision | null => {
    const lease = b.lease;
    if (!lease) return null;
    if (nowMs >= lease.resetAt || lease.next > lease.end) {
      b.lease = null;
      return null;
    }
    // The slot is past a limit lowered since: the window is full for this limit.
    if (lease.next > limit) return { allowed: false, limit, remaining: 0, resetAt: lease.resetAt };
    const slot = lease.next++;
    b.served++;
    return { allowed: true, limit, remaining: limit - slot, resetAt: lease.resetAt };
  };

  /** Takes leases for the bucket's waiters until none is left waiting. */
  const pump = async (bucket: string, b: Bucket) => {
    b.leasing = true;
    try {
      while (b.queue.length > 0) {
        const waiting = b.queue;
        const need = waiting.length;
        const first = waiting[0] as Waiter;
        let nowMs = first.nowMs;
        for (const w of waiting) if (w.nowMs > nowMs) nowMs = w.nowMs;
        // About LEASE_MS of the bucket's recent traffic ahead, judged by how fast the last lease went.
        const rate = b.served / Math.max(1, nowMs - b.leasedAt);
        const ahead =
          b.leasedAt === Number.NEGATIVE_INFINITY ? 0 : Math.min(MAX_LEASE, Math.floor(rate * LEASE_MS));
        const [row] = await sql.unsafe(
          LEASE,
          [bucket, first.limit, nowMs, first.windowMs, need, ahead, grantOf(first.limit, need, ahead)],
          { prepare: true },
        );
        if (!row) throw new Error("rate_limits upsert returned no row");
        const end = Number(row.count);
        const granted = Number(row.granted);
        const resetAt = Number(row.reset_at);
        b.leasedAt = nowMs;
        b.served = 0;
        b.lease = granted > 0 ? { next: end - granted + 1, end, resetAt } : null;
        // Waiters take slots in arrival order; those the lease could not serve are refused when
        // the window had nothing more to give, and wait for the next lease otherwise.
        let served = 0;
        while (b.queue.length > 0) {
          const w = b.queue[0] as Waiter;
          const decision = fromLease(b, w.limit, w.nowMs);
          if (!decision && served >= granted && served < need) {
            w.resolve({ allowed: false, limit: w.limit, remaining: 0, resetAt });
          } else if (decision) w.resolve(decision);
          else break;
          served++;
          b.queue.shift();
        }
      }
    } catch (error) {
      for (const w of b.queue.splice(0)) w.reject(error);
    } finally {
      b.leasing = false;
    }
  };

  // A database that cannot be reached rejects with ParlanceError "unavailable" (503), as the store does.
  return withUnavailable(
    {
      consume(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision> {
        if (nowMs > latestMs) latestMs = nowMs;
        let b = buckets.get(bucket);
        if (b && b.queue.length === 0) {
          const decision = fromLease(b, limit, nowMs);
          if (decision) return Promise.resolve(decision);
        }
        if (!b) {
          b = { lease: null, queue: [], leasing: false, leasedAt: Number.NEGATIVE_INFINITY, served: 0 };
          buckets.set(bucket, b);
        }
        const bucketState = b;
        return new Promise<RateDecision>((resolve, reject) => {
          bucketState.queue.push({ limit, windowMs, nowMs, resolve, reject });
          // Requests arriving in the same turn of the event loop share one round trip.
          if (!bucketState.leasing) {
            bucketState.leasing = true;
            queueMicrotask(() => void pump(bucket, bucketState));
          }
        });
      },
      consumeNow(bucket: string, limit: number, _windowMs: number, nowMs: number): RateDecision | undefined {
        // Only from the bucket's lease, and not ahead of requests waiting for the next one.
        const b = buckets.get(bucket);
        if (!b || b.queue.length > 0) return undefined;
        const decision = fromLease(b, limit, nowMs);
        if (!decision) return undefined;
        if (nowMs > latestMs) latestMs = nowMs;
        return decision;
      },
      async flush() {
        // Unused quota goes back, so another instance may use it; buckets idle for a while are forgotten.
        const back: { bucket: string; n: number; resetAt: number }[] = [];
        for (const [bucket, b] of buckets) {
          const lease = b.lease;
          b.lease = null;
          if (lease && lease.next <= lease.end && lease.resetAt > latestMs)
            back.push({ bucket, n: lease.end - lease.next + 1, resetAt: lease.resetAt });
          else if (!b.leasing && b.queue.length === 0 && latestMs - b.leasedAt > FORGET_AFTER_MS)
            buckets.delete(bucket);
        }
        if (back.length > 0) {
          // In bucket order, so two instances giving back at once lock rows in the same order; only
          // to the window it was leased from (a window that ended and started again has a new reset_at).
          back.sort((x, y) => (x.bucket < y.bucket ? -1 : x.bucket > y.bucket ? 1 : 0));
          await sql`
          UPDATE rate_limits AS r SET count = GREATEST(r.count - x.n, 0)
          FROM unnest(${sql.array(back.map((x) => x.bucket))}::text[],
                      ${sql.array(back.map((x) => x.n))}::int[],
                      ${sql.array(back.map((x) => x.resetAt))}::bigint[]) AS x(bucket, n, reset_at)
          WHERE r.bucket = x.bucket AND r.reset_at = x.reset_at`;
        }
        if (latestMs - prunedAtMs >= pruneEveryMs) await prune(latestMs);
      },
      prune,
    },
    outageGateOf(sql),
  );
}

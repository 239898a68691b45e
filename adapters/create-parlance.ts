import { runtimeHasher } from "../adapters/hasher.ts";
import { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
import { createPQueueJobQueue } from "../adapters/p-queue-job-queue.ts";
import { createPasswordHasher } from "../adapters/password-hasher.ts";
import { systemClock } from "../adapters/system-clock.ts";
import {
  type Clock,
  createParlance as createCore,
  type Hasher,
  type JobQueue,
  type Parlance,
  type ParlanceOptions,
  type PasswordHasher,
  type RateLimiter,
  type Storage,
} from "../core/index.ts";

export interface CreateParlanceOptions extends ParlanceOptions {
  /** Where everything is kept: memory, SQLite, Postgres, or your own adapter. */
  storage: Storage;
  /** Runs import jobs; default: in this process, one at a time (p-queue). */
  queue?: JobQueue;
  /** Default: the system clock. Tests pass `createFixedClock()` from `…/clock` or `…/testing`. */
  clock?: Clock;
  /**
   * Default: counted in memory, windows kept in `storage` across restarts. Instances sharing a
   * Postgres database should pass `createPostgresRateLimiter(sql)` so they count together.
   */
  rateLimiter?: RateLimiter;
  /** Default: SHA-256 and ETag fingerprints from the runtime (Bun's own, or node:crypto). */
  hasher?: Hasher;
  /** Default: argon2id, Bun's built-in on Bun, hash-wasm elsewhere. */
  passwords?: PasswordHasher;
}

/**
 * A RateLimiter whose windows load from the store on first use, so creating a Parlance stays
 * synchronous while a restarted instance still does not hand out a fresh hour.
 */
function loadOnFirstUse(load: () => Promise<RateLimiter>): RateLimiter {
  let loaded: Promise<RateLimiter> | null = null;
  /** The limiter once loaded: until then nothing is decided without waiting. */
  let ready: RateLimiter | null = null;
  const limiter = () => {
    loaded ??= load().then((l) => {
      ready = l;
      return l;
    });
    return loaded;
  };
  return {
    consume: async (bucket, limit, windowMs, nowMs) =>
      (await limiter()).consume(bucket, limit, windowMs, nowMs),
    consumeNow: (bucket, limit, windowMs, nowMs) => ready?.consumeNow?.(bucket, limit, windowMs, nowMs),
    flush: async () => {
      if (loaded) await (await loaded).flush();
    },
  };
}

/**
 * Parlance with sensible defaults: give it a storage, get the use cases. Every other port can be
 * replaced. Nothing process-wide changes, so several instances (different stores, clocks, options)
 * live side by side. Call `start()` when the store outlives the process (resumes unfinished jobs).
 *
 * ```ts
 * const parlance = createParlance({ storage: createMemoryStorage() });
 * const acme = parlance.as(orgId); // the app itself, no API key
 * await acme.push({ projectId, language: "fr", content: '{"hello":"Bonjour"}' });
 * ```
 */
export function createParlance(options: CreateParlanceOptions): Parlance {
  const {
    storage,
    queue,
    clock = systemClock,
    rateLimiter,
    hasher = runtimeHasher,
    passwords,
    ...rest
  } = options;
  // A JavaScript caller has no type checker to say it: the first use would fail far from here.
  if (typeof storage !== "object" || storage === null)
    throw new TypeError(
      "createParlance needs { storage }: createMemoryStorage(), createSqliteStorage(db) or createPostgresStorage(sql)",
    );
  if (typeof (storage as { then?: unknown }).then === "function")
    throw new TypeError(
      "createParlance was given a promise as storage: await createPostgresStorage(sql) first",
    );
  const log = rest.log;
  const reportTaskError = (e: unknown) => log?.("error", "background task failed", { error: String(e) });
  return createCore(
    {
      storage,
      queue: queue ?? createPQueueJobQueue(reportTaskError),
      clock,
      rateLimiter: rateLimiter ?? loadOnFirstUse(() => createMemoryRateLimiter(storage.rateWindows, clock)),
      hasher,
      passwords: passwords ?? createPasswordHasher(),
    },
    rest,
  );
}

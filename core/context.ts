import type { Clock, Hasher, JobQueue, RateLimiter, Storage } from "./ports.ts";

/** What a running Parlance holds: the ports, passed to each use case as one plain object. */
export interface Deps {
  storage: Storage;
  queue: JobQueue;
  clock: Clock;
  rateLimiter: RateLimiter;
  hasher: Hasher;
}

export interface Settings {
  /** Requests per hour for callers without valid credentials, per client address. */
  anonRateLimit: number;
  /** How long a claimed job is held before another worker may take it over. */
  jobLeaseMs: number;
  /** Access token lifetime. */
  tokenTtlSeconds: number;
}

export const DEFAULT_SETTINGS: Settings = {
  anonRateLimit: 1000,
  jobLeaseMs: 30_000,
  tokenTtlSeconds: 3600,
};

export const nowIso = (deps: Pick<Deps, "clock">): string => deps.clock.now().toISOString();

import type { Clock, Hasher, JobQueue, PasswordHasher, RateLimiter, Storage } from "./ports.ts";

/** What a running Parlance holds: the ports, passed to each use case as one plain object. */
export interface Deps {
  storage: Storage;
  queue: JobQueue;
  clock: Clock;
  rateLimiter: RateLimiter;
  hasher: Hasher;
  /** argon2id for people's passwords (the workspace). */
  passwords: PasswordHasher;
}

/**
 * What `createParlance` takes: `Deps`, with the password hasher optional so hosts that wired the
 * core before the workspace existed keep compiling (semver minor). Without one, only the people
 * use cases (sign-in, setup, invitations) fail, and they say what to pass.
 */
export type CoreDeps = Omit<Deps, "passwords"> & { passwords?: PasswordHasher };

const refuse = async (): Promise<never> => {
  throw new Error(
    "This Parlance was created without a password hasher: pass `passwords: createPasswordHasher()` " +
      "(from parlance-tms/hasher) to createCore to use sign-in, setup links and invitations.",
  );
};

/** The hasher a core created without one uses: every call explains what is missing. */
export const MISSING_PASSWORD_HASHER: PasswordHasher = { hash: refuse, verify: refuse };

export interface Settings {
  /** Requests per hour for callers without valid credentials, per client address. */
  anonRateLimit: number;
  /** How long a claimed job is held before another worker may take it over. */
  jobLeaseMs: number;
  /**
   * Execution attempts a job gets: a job claimed this many times without finishing (each time the
   * process died under it) is failed with a message at its next claim instead of run again.
   */
  jobMaxAttempts: number;
  /**
   * How often the runner looks for claimable jobs once started: a lease another instance let lapse,
   * or a job left `running` because marking it failed threw (the store was down).
   */
  jobPollMs: number;
  /**
   * Unfinished jobs the store may hold: past it, a push is refused with 429 and Retry-After until
   * the queue drains, so a flood of pushes cannot fill memory (the memory store) or disk.
   */
  maxQueuedJobs: number;
  /** Access token lifetime. */
  tokenTtlSeconds: number;
}

export const DEFAULT_SETTINGS: Settings = {
  anonRateLimit: 1000,
  jobLeaseMs: 30_000,
  jobMaxAttempts: 3,
  jobPollMs: 2_000,
  maxQueuedJobs: 100,
  tokenTtlSeconds: 3600,
};

export const nowIso = (deps: Pick<Deps, "clock">): string => deps.clock.now().toISOString();

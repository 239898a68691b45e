/**
 * Ports: the small, domain-shaped interfaces the core needs from the outside world.
 * Every storage method returns a promise so a network database fits the same shape.
 * "Absent" is always `null`, never an exception. Dates are ISO-8601 strings; `now` comes in as a
 * parameter so no adapter reads a clock of its own.
 */
import type {
  AccessToken,
  ApiKey,
  EnvironmentOverride,
  ExistingRow,
  ImportSummary,
  Job,
  Organization,
  Page,
  Project,
  Translation,
  TranslationRow,
  TranslationWrite,
} from "./types.ts";

export interface Clock {
  now(): Date;
}

/** SHA-256 is synchronous in every runtime we serve on, but not through a web standard. */
export interface Hasher {
  /** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
  sha256Hex(text: string): string;
  /** A fast digest for cache validators (ETags): equal texts, equal results; never for secrets. */
  fingerprint(text: string): string;
}

export interface OrganizationStore {
  create(org: Organization): Promise<void>;
  /** null when absent. */
  get(id: string): Promise<Organization | null>;
  /** Every organization, by name in code-point order, then id; empty when there are none. */
  list(): Promise<Organization[]>;
  /** The updated organization, or null when absent. `null` quota means unlimited. */
  setQuota(id: string, maxTranslations: number | null): Promise<Organization | null>;
}

export interface ProjectStore {
  create(project: Project): Promise<void>;
  /** null when absent; soft-deleted projects are returned with `deletedAt` set. */
  get(id: string): Promise<Project | null>;
  /** Non-deleted projects of the organization, by name in code-point order, then id. */
  listByOrg(orgId: string): Promise<Project[]>;
  /** Non-deleted projects of every organization, by name in code-point order, then id. */
  listAll(): Promise<Project[]>;
  /** Appends the language if absent (idempotent); the updated project, or null when absent. */
  addLanguage(id: string, language: string): Promise<Project | null>;
  /** Sets `deletedAt` (keeps an earlier one); the project, or null when absent. */
  softDelete(id: string, now: string): Promise<Project | null>;
}

export interface UsageIncrement {
  keyId: string;
  count: number;
  lastUsedAt: string;
}

export interface KeyStore {
  /** Throws ParlanceError "conflict" when the organization already has a key of that name. */
  create(key: ApiKey): Promise<void>;
  /** null when no key has that hash. */
  findByHash(hash: string): Promise<ApiKey | null>;
  /** null when absent. */
  get(id: string): Promise<ApiKey | null>;
  /** Newest first (createdAt descending, then id descending). */
  listByOrg(orgId: string, limit: number, offset: number): Promise<Page<ApiKey>>;
  /** Number of keys in the whole store, active or not. */
  count(): Promise<number>;
  /** The updated key, or null when absent. */
  deactivate(id: string): Promise<ApiKey | null>;
  /** Adds each count to usageCount and sets lastUsedAt (keeping a later one); one atomic batch. */
  addUsage(increments: UsageIncrement[]): Promise<void>;
}

export interface TokenStore {
  create(token: AccessToken): Promise<void>;
  /** null when no token has that hash (expired ones are still returned). */
  findByHash(hash: string): Promise<AccessToken | null>;
  /** Removes tokens that expired before `now`; how many were removed. */
  deleteExpired(now: string): Promise<number>;
}

export interface LanguageCoverage {
  /** Keys with a non-empty value in the base language. */
  referenceKeyCount: number;
  /** language → reference keys with a non-empty value in that language (absent means 0). */
  filled: Map<string, number>;
}

export interface TranslationStore {
  /** Every row of one language of one project, by key. One read. */
  readLanguage(projectId: string, language: string): Promise<Map<string, ExistingRow>>;
  /**
   * Rows of one language (id, key, value, status: what an export needs, no more) in ascending
   * code-point order of key. `ids` null means all rows; otherwise only rows whose id is listed
   * (ids of other projects or languages match nothing). One read.
   */
  listForExport(projectId: string, language: string, ids: string[] | null): Promise<TranslationRow[]>;
  /** One page of a language, in ascending code-point order of key; total counts the whole language. */
  listPage(projectId: string, language: string, limit: number, offset: number): Promise<Page<Translation>>;
  /** Rows across the organization's non-deleted projects. */
  countByOrg(orgId: string): Promise<number>;
  /** Coverage counts for every language of the project against its base language. One read. */
  coverage(projectId: string, baseLanguage: string): Promise<LanguageCoverage>;
}

/** The writes of one import job, committed with the job's completion. */
export interface ImportCommit {
  projectId: string;
  language: string;
  /** Upserted by (projectId, language, key); an existing row keeps its id. */
  writes: TranslationWrite[];
  /** Ids of rows of that language to delete (replace mode). */
  deleteIds: string[];
  summary: ImportSummary;
}

export interface JobStore {
  create(job: Job): Promise<void>;
  /**
   * The job without its payload (`payload` is always null here: a push's content can be 12 MB and
   * polling must not carry it; only claimNext hands the payload out). null when absent.
   */
  get(id: string): Promise<Job | null>;
  /**
   * Atomically claims the oldest claimable job (in order of creation): one that is `pending`, or
   * `running` with a lease that ended before `now`, and that has no older unfinished job in the same
   * project (pushes to one project apply in the order they were accepted). Sets it `running` with
   * `runId` and `leaseUntil`. The claimed job, or null when none is claimable. Two racing callers
   * never claim the same job.
   */
  claimNext(runId: string, now: string, leaseUntil: string): Promise<Job | null>;
  /** Extends the lease if `runId` still holds the job; false otherwise. */
  renewLease(id: string, runId: string, leaseUntil: string): Promise<boolean>;
  /**
   * In one transaction: applies the writes and deletes and marks the job `completed` with the
   * summary, clearing its payload and lease. Does nothing and returns false unless `runId` still
   * holds the job (so a job whose lease was taken over is never applied twice).
   */
  complete(id: string, runId: string, commit: ImportCommit, now: string): Promise<boolean>;
  /** Marks the job `failed` with the message if `runId` still holds it; false otherwise. */
  fail(id: string, runId: string, message: string, now: string): Promise<boolean>;
  /**
   * Makes every `running` job claimable at once (lease cleared). Only for a store that a single
   * server instance owns, at start-up: whatever was running died with the previous process.
   */
  releaseLeases(now: string): Promise<number>;
}

export interface EnvironmentStore {
  /** Inserts or replaces the override of (project, environment, language, key). */
  set(override: EnvironmentOverride): Promise<void>;
  /** key → value of every override of that environment and language. */
  list(projectId: string, environment: string, language: string): Promise<Map<string, string>>;
  /** True once any override of that environment exists for the project. */
  exists(projectId: string, environment: string): Promise<boolean>;
}

/** One fixed rate-limit window. */
export interface RateWindow {
  bucket: string;
  /** Requests counted in the window. */
  count: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

/** Where a single-instance limiter keeps its windows across restarts. */
export interface RateWindowStore {
  /** Windows that end after `nowMs`. */
  load(nowMs: number): Promise<RateWindow[]>;
  /** Replaces the stored state of these buckets; drops windows that ended before `nowMs`. */
  save(windows: RateWindow[], nowMs: number): Promise<void>;
}

export interface Storage {
  orgs: OrganizationStore;
  projects: ProjectStore;
  keys: KeyStore;
  tokens: TokenStore;
  translations: TranslationStore;
  jobs: JobStore;
  environments: EnvironmentStore;
  rateWindows: RateWindowStore;
  /** True when several server instances may share this store (Postgres). */
  readonly shared: boolean;
  /**
   * Runs `fn` while no other caller, in this process or another instance sharing the store, runs a
   * function under the same `name`. For rare check-then-act steps such as the first-start bootstrap.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Resolves when the store answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Releases what the adapter holds; the caller still owns (and closes) the client it passed in. */
  close(): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

export interface RateLimiter {
  /**
   * Atomically counts one request against `bucket` in a fixed window of `windowMs` that starts at
   * the bucket's first request. A refused request is not counted.
   */
  consume(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision>;
  /** Writes back whatever is held in memory (periodically and at shutdown). */
  flush(): Promise<void>;
}

/** Runs background work in this process. */
export interface JobQueue {
  /** Schedules `task`; the queue runs tasks one at a time in the order they were added. */
  add(task: () => Promise<void>): void;
  /** Resolves when nothing is queued or running. */
  onIdle(): Promise<void>;
  /** Stops taking tasks; resolves when the running one ends. */
  close(): Promise<void>;
}

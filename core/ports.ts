/**
 * Ports: the small, domain-shaped interfaces the core needs from the outside world.
 * Every storage method returns a promise so a network database fits the same shape.
 * "Absent" is always `null`, never an exception. Dates are ISO-8601 strings; `now` comes in as a
 * parameter so no adapter reads a clock of its own.
 */

import type { Warning } from "./checks/index.ts";
import type {
  Member,
  Membership,
  MembershipChange,
  MembershipOutcome,
  OneTimeKind,
  OneTimeToken,
  Session,
  User,
} from "./people/types.ts";
import type { Actor } from "./principal.ts";
import type {
  ActivityItem,
  BrowsePage,
  BrowseQuery,
  CommitOutcome,
  DeletedKey,
  HistoryEntry,
  Paged,
  PeopleCoverage,
  RecordCommit,
  RecordState,
} from "./records/types.ts";
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
  SourcedRow,
  Translation,
  TranslationRow,
  TranslationStatus,
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
  /**
   * What `get` would answer, when the adapter can tell without waiting (a row it holds in memory,
   * a synchronous driver); `undefined` when it cannot, and the caller asks `get`. Never throws.
   * Optional: it spares the small requests an asynchronous frame per layer (issue 13, small GET).
   */
  getNow?(id: string): Project | null | undefined;
  /** Non-deleted projects of the organization, by name in code-point order, then id. */
  listByOrg(orgId: string): Promise<Project[]>;
  /** Non-deleted projects of every organization, by name in code-point order, then id. */
  listAll(): Promise<Project[]>;
  /** Appends the language if absent (idempotent); the updated project, or null when absent. */
  addLanguage(id: string, language: string): Promise<Project | null>;
  /** Sets the name; the updated project, or null when absent. */
  rename(id: string, name: string): Promise<Project | null>;
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
  /** What `findByHash` would answer, or `undefined` to ask it (as `ProjectStore.getNow`). Never throws. */
  findByHashNow?(hash: string): ApiKey | null | undefined;
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
   * The values of `keys` in one language, by key (keys without a row are absent). One read.
   * Optional: an import's checks read the base values of each batch of writes with it, where a
   * store without it gives them by `records.read` or the whole language (readLanguage).
   */
  readValues?(projectId: string, language: string, keys: readonly string[]): Promise<Map<string, string>>;
  /**
   * Rows of one language (id, key, value, status: what an export needs, no more) in ascending
   * code-point order of key. `ids` null means all rows; otherwise only rows whose id is listed
   * (ids of other projects or languages match nothing). One read.
   */
  listForExport(projectId: string, language: string, ids: string[] | null): Promise<TranslationRow[]>;
  /**
   * listForExport's rows without their id, which no file format writes: one column and one string
   * a row fewer to read (a 50,000-row pull reads 50,000 ids for nothing otherwise). Optional:
   * without it, a pull reads listForExport's rows.
   */
  listForExportWithoutIds?(
    projectId: string,
    language: string,
    ids: string[] | null,
  ): Promise<Omit<TranslationRow, "id">[]>;
  /**
   * listForExport's rows, without their id (XLIFF writes none), each with its `source`: the value
   * of the same key in `sourceLanguage`, or null when that language lacks the key. One read (both
   * languages at one moment), where XLIFF would otherwise read the base language whole and look
   * every key up. Optional: without it, pull makes the two reads.
   */
  listForExportWithSource?(
    projectId: string,
    language: string,
    sourceLanguage: string,
    ids: string[] | null,
  ): Promise<SourcedRow[]>;
  /**
   * listForExportWithSource's rows of a whole language, read in pages as they are consumed, in one
   * snapshot held while the file is sent (bounded by the store), so a pull's first bytes leave
   * before its last rows are read. Null when the store cannot now (its reader is busy with another
   * export): the caller then reads whole. Optional.
   */
  streamForExportWithSource?(
    projectId: string,
    language: string,
    sourceLanguage: string,
  ): Promise<Iterable<SourcedRow> | null>;
  /**
   * listForExportWithSource's rows of a whole language, in pages (none empty) given as the store
   * reads them, so a pull writes and sends its first rows while the rest are still read. One
   * snapshot; the read goes on to its end whether or not the pages are taken, so it never waits
   * for a client. A failed read fails the next page. Optional.
   */
  pagesForExportWithSource?(
    projectId: string,
    language: string,
    sourceLanguage: string,
  ): AsyncIterable<SourcedRow[]>;
  /**
   * An opaque token of what `languages` of the project hold (one part per language, in the order
   * given). A language's part changes in the same commit as any change of its rows (written,
   * deleted, renamed, restored) or of an environment override of it, and never returns to an
   * earlier value, not even after a restore from backup; an unchanged language keeps it. One small
   * read, no row of `translations`: pull derives its ETag from it, reading it before the rows so a
   * tag never names newer data than it was sent with. Optional: without it, pull fingerprints the
   * rendered file instead (every conditional GET then renders it).
   */
  exportVersion?(projectId: string, languages: readonly string[]): Promise<string>;
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
  /**
   * Upserted by (projectId, language, key); an existing row keeps its id. A new row's `id` may be
   * an accessor on the write's prototype (core/import-plan.ts makes it when read, to hold no id
   * string per row): read `w.id`, and name it when copying a write by spreading it.
   */
  writes: TranslationWrite[];
  /** Ids of rows of that language to delete (replace mode). */
  deleteIds: string[];
  summary: ImportSummary;
  /**
   * Who pushed, and what history needs: when present, the same transaction writes one history
   * entry per write and delete, the job's activity item, the written records' warnings, and the
   * rechecked warnings of other languages. Versions grow by one on every write either way.
   */
  audit?: ImportAudit;
}

export interface ImportAudit {
  actor: Actor;
  jobId: string;
  /** Aligned with `writes`: the value and status each replaces, null for a created row. */
  previous: ({ value: string; status: TranslationStatus } | null)[];
  /** Aligned with `writes`: the checks' warnings of each written value. */
  warnings: (readonly Warning[])[];
  /** Aligned with `deleteIds`: what each deleted row held. */
  deleted: { key: string; value: string; status: TranslationStatus }[];
  /** Records of other languages whose base value changed: their new warnings (no new version). */
  rechecks: { id: string; warnings: Warning[] }[];
  activity: ActivityItem;
}

/**
 * Per-record work: browsing, guarded edits, keys, history and activity. Every change goes through
 * one atomic call that also writes its history entries and its activity item.
 */
export interface RecordStore {
  /** Live records of `keys` in `languages` (every language when null); keys without rows are absent. */
  read(projectId: string, keys: string[], languages: string[] | null): Promise<RecordState[]>;
  /** One page of keys (code-point order) with the base and chosen languages, and the counts. */
  browse(query: BrowseQuery): Promise<BrowsePage>;
  /** Every key matching the query's filters in its language (no paging), in code-point order. */
  matchKeys(query: BrowseQuery): Promise<string[]>;
  /**
   * Atomically: checks every write's expected version, then applies the writes (version + 1, or 1
   * for a new record), the rechecked warnings, one history entry per write and the activity item.
   * Nothing is written when a version does not hold.
   */
  commit(commit: RecordCommit): Promise<CommitOutcome>;
  /** Entries of one record (by id), newest first; `cursor` from a previous page. */
  history(recordId: string, cursor: string | null, limit: number): Promise<Paged<HistoryEntry>>;
  /** null when the project has no such entry. */
  historyEntry(projectId: string, entryId: string): Promise<HistoryEntry | null>;
  /** The project's activity, newest first. */
  activity(projectId: string, cursor: string | null, limit: number): Promise<Paged<ActivityItem>>;
  /**
   * Renames a key in every language, keeping ids and history (version + 1, one entry per record).
   * "missing" when no record has `from`, "exists" when a live record has `to`.
   */
  renameKey(
    projectId: string,
    from: string,
    to: string,
    activity: ActivityItem,
  ): Promise<"renamed" | "missing" | "exists">;
  /** Soft-deletes the keys in every language (restorable); how many records were deleted. */
  deleteKeys(projectId: string, keys: string[], activity: ActivityItem): Promise<number>;
  /** Deleted keys not restored since, most recently deleted first. */
  listDeleted(projectId: string): Promise<DeletedKey[]>;
  /** Brings a deleted key back in every language it had; "exists" when a live record has the key. */
  restoreKey(
    projectId: string,
    key: string,
    activity: ActivityItem,
  ): Promise<"restored" | "missing" | "exists">;
  /** Status and warning counts per language over the reference keys. */
  coverage(projectId: string, baseLanguage: string, languages: string[]): Promise<PeopleCoverage[]>;
}

export interface JobStore {
  /**
   * Stores a new job. Keeps nothing of `job.payload.content` once it resolves (it copies the bytes
   * or writes them out): the caller may then reuse or release them, as the server does with the
   * 12 MB body a push's content lies in.
   */
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
   * `runId` and `leaseUntil` and adds one to `attempts`. The claimed job, or null when none is
   * claimable. Two racing callers never claim the same job.
   *
   * Lease times: a store that several instances share (`Storage.shared`) measures leases with its
   * own clock, not the callers' (whose clocks differ): the lease lasts `leaseUntil − now` from the
   * store's time, "ended" means ended by the store's time, and the `leaseUntil` it shows is in the
   * store's time. A single-instance store takes both times as given.
   * `held`: jobs whose content the caller has in hand already (the push that stored them ran in
   * this process); when the claimed job is one of them, its payload's content is left empty
   * instead of being read back (it can be 12 MB).
   */
  claimNext(runId: string, now: string, leaseUntil: string, held?: ReadonlySet<string>): Promise<Job | null>;
  /** Extends the lease to `leaseUntil` (measured as in claimNext) if `runId` still holds the job; false otherwise. */
  renewLease(id: string, runId: string, leaseUntil: string, now: string): Promise<boolean>;
  /**
   * In one transaction: applies the writes and deletes and marks the job `completed` with the
   * summary, clearing its payload and lease. Does nothing and returns false unless `runId` still
   * holds the job (so a job whose lease was taken over is never applied twice).
   */
  complete(id: string, runId: string, commit: ImportCommit, now: string): Promise<boolean>;
  /** Marks the job `failed` with the message if `runId` still holds it; false otherwise. */
  fail(id: string, runId: string, message: string, now: string): Promise<boolean>;
  /** How many jobs are `pending` or `running`: the length of the queue. */
  countUnfinished(): Promise<number>;
  /**
   * The project's `limit` most recent jobs, newest (last created) first, without their payload
   * (as `get`). Empty when it has none.
   */
  listByProject(projectId: string, limit: number): Promise<Job[]>;
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

/** Argon2id password hashing; the runtime's own where it has one (Bun), a WASM build elsewhere. */
export interface PasswordHasher {
  /** A PHC-format argon2id hash with a fresh salt. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `hash`; false (never a throw) for a malformed hash. */
  verify(password: string, hash: string): Promise<boolean>;
}

export interface UserStore {
  /** Throws ParlanceError "conflict" when a user has that email (compared case-insensitively). */
  create(user: User): Promise<void>;
  /** null when absent. */
  get(id: string): Promise<User | null>;
  /** The user whose email equals `email` case-insensitively, or null. */
  findByEmail(email: string): Promise<User | null>;
  /** Number of users in the whole store. */
  count(): Promise<number>;
  /** Sets name and/or email; the updated user, or null when absent. "conflict" when the email is taken. */
  update(id: string, change: { name?: string; email?: string }, now: string): Promise<User | null>;
  /** Replaces the password hash; false when the user is absent. */
  setPasswordHash(id: string, passwordHash: string, now: string): Promise<boolean>;
}

export interface MembershipStore {
  /** Adds the membership; "conflict" when the user already belongs to the organization. */
  create(membership: Membership): Promise<void>;
  /** null when the user is not a member. */
  get(orgId: string, userId: string): Promise<Membership | null>;
  /** The user's memberships, by organization id. */
  listByUser(userId: string): Promise<Membership[]>;
  /** The organization's members with their email and name, by email (lower-case) then user id. */
  listByOrg(orgId: string): Promise<Member[]>;
  /** Atomically applies `change` unless it would leave the organization without an owner. */
  update(orgId: string, userId: string, change: MembershipChange): Promise<MembershipOutcome>;
  /** Atomically removes the membership unless it would leave the organization without an owner. */
  remove(orgId: string, userId: string): Promise<MembershipOutcome>;
}

export interface SessionStore {
  create(session: Session): Promise<void>;
  /** null when no session has that hash (expired ones too, until deleted). */
  findByHash(tokenHash: string): Promise<Session | null>;
  /** Records a use: sets lastUsedAt and idleExpiresAt. False when the session is gone. */
  touch(id: string, lastUsedAt: string, idleExpiresAt: string): Promise<boolean>;
  /** The user's sessions that have not expired at `now`, most recently used first. */
  listByUser(userId: string, now: string): Promise<Session[]>;
  /** Deletes the session if it is the user's; false otherwise. */
  delete(id: string, userId: string): Promise<boolean>;
  /** Deletes every session of the user except `keepId`; how many were deleted. */
  deleteForUser(userId: string, keepId: string | null): Promise<number>;
  /** Deletes sessions expired (idle or absolute) before `now`; how many. */
  deleteExpired(now: string): Promise<number>;
}

export interface OneTimeTokenStore {
  create(token: OneTimeToken): Promise<void>;
  /** null when absent (used and expired ones are still returned). */
  findByHash(tokenHash: string): Promise<OneTimeToken | null>;
  /** null when absent. */
  get(id: string): Promise<OneTimeToken | null>;
  /**
   * Atomically marks the token of that hash and kind used, if it is unused and expires after `now`;
   * the token as it was, or null. Of two racing callers exactly one gets it.
   */
  consume(tokenHash: string, kind: OneTimeKind, now: string): Promise<OneTimeToken | null>;
  /** Invitations of the organization not used and not expired at `now`, newest first. */
  listInvitations(orgId: string, now: string): Promise<OneTimeToken[]>;
  /** Marks an unused token used (revoked); false when absent or already used. */
  revoke(id: string, now: string): Promise<boolean>;
}

export interface Storage {
  users: UserStore;
  memberships: MembershipStore;
  sessions: SessionStore;
  oneTimeTokens: OneTimeTokenStore;
  orgs: OrganizationStore;
  projects: ProjectStore;
  keys: KeyStore;
  tokens: TokenStore;
  translations: TranslationStore;
  records: RecordStore;
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
  /**
   * `consume` decided without waiting (the window is held in memory), or `undefined`, having
   * counted nothing, when the limiter must wait (a lease, the database): then the caller asks
   * `consume`. Never throws. Optional.
   */
  consumeNow?(bucket: string, limit: number, windowMs: number, nowMs: number): RateDecision | undefined;
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

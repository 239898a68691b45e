import { bindPrincipal } from "./acting-as.ts";
import * as admin from "./admin.ts";
import { admit, admitNow } from "./admission.ts";
import { createKeyForCaller, deactivateKeyForCaller, listKeys, type NewKey } from "./api-keys.ts";
import { bootstrap } from "./bootstrap.ts";
import {
  type CoreDeps,
  DEFAULT_SETTINGS,
  type Deps,
  MISSING_PASSWORD_HASHER,
  type Settings,
} from "./context.ts";
import { coverage } from "./coverage.ts";
import { isParlanceError } from "./errors.ts";
import { createEventBus } from "./events.ts";
import { createImportRunner, type Logger } from "./import-runner.ts";
import { getJob, listProjectJobs } from "./jobs.ts";
import { keyInfo } from "./key-info.ts";
import { requestToken, type TokenRequest } from "./oauth.ts";
import { createPeople } from "./people/index.ts";
import { appPrincipal, type KeyPrincipal, type Principal } from "./principal.ts";
import { getProject, getProjectNow, listProjects } from "./projects.ts";
import { type PullRequest, pull, pullFile } from "./pull.ts";
import { type PushRequest, push } from "./push.ts";
import { createRecordUseCases } from "./records/index.ts";
import { listTranslations } from "./translations.ts";
import { createUsageTracker } from "./usage.ts";

export interface ParlanceOptions extends Partial<Settings> {
  log?: Logger;
  /**
   * Called between the batches of an import job's checks (2,000 writes each, once the last batch's
   * base values are garbage) and once it has planned: the Bun server runs a young-generation
   * collection there, so the garbage of pushes arriving meanwhile does not pile up while the job runs.
   */
  betweenImportSlices?: () => void;
  /**
   * Called as a push's content is read, about once per 1.5 MB (7 or 8 times
   * for 12 MB, never for a content smaller), paced by the bytes read and not by the clock: the Bun
   * server runs a young-generation collection there, so that what the reader made and let go of
   * (member names, the keys' parts) is freed while young instead of piling up until the push is
   * answered, however fast the machine reads; the request's peak was its parse
   * (docs/benchmarks.md, "Push memory, ninth pass" and "Push memory, thirteenth pass").
   */
  whileReadingContent?: () => void;
  /**
   * Called once a push's checks passed (scope, project, language, queue), right before its
   * content is read, with the content's size in bytes: the Bun server returns a large body's
   * buffers to the system there (a full collection, under light traffic only), so that they are
   * not resident under the reading's peak, and a refused push pays for none
   * (docs/benchmarks.md, "Push memory, thirteenth pass").
   */
  beforeReadingContent?: (bytes: number) => void;
  /**
   * Called three times, evenly spaced, between the batches of the checks of a
   * large import (LARGE_PLAN_WRITES writes or more): the Bun server runs a full collection there.
   * It frees the rows the push handed over (old by then, so a young collection cannot) and the
   * base values of the batches checked so far: RSS climbed 0.6–1 MiB a batch over a 50,000-row
   * job's 25 batches, to its peak at their end, and once halfway let it climb again to a peak
   * above the push's own (docs/benchmarks.md, "Push memory, eleventh pass" and "thirteenth pass").
   */
  duringLargeChecks?: () => void;
}

const silent: Logger = () => {};

/**
 * The composition root of the core: takes the ports, returns every use case. Embedders call these
 * directly; the HTTP server is one such caller. Nothing here reads the environment or a clock of
 * its own.
 */
export function createParlance(input: CoreDeps, options: ParlanceOptions = {}) {
  const deps: Deps = { ...input, passwords: input.passwords ?? MISSING_PASSWORD_HASHER };
  const {
    log = silent,
    betweenImportSlices,
    whileReadingContent,
    beforeReadingContent,
    duringLargeChecks,
    ...overrides
  } = options;
  const reading = { before: beforeReadingContent, during: whileReadingContent };
  const settings: Settings = { ...DEFAULT_SETTINGS, ...overrides };
  const usage = createUsageTracker(deps.storage.keys);
  const events = createEventBus((name, error) =>
    log("error", "event listener failed", { event: name, error: String(error) }),
  );
  const runner = createImportRunner(deps, settings, log, events, betweenImportSlices, duringLargeChecks);
  const flush = async () => {
    await Promise.all([usage.flush(), deps.rateLimiter.flush()]);
  };

  const records = createRecordUseCases(deps, events);

  /** Every use case that acts for a principal, first argument; `as()` binds them all at once. */
  const acting = {
    getProject: (p: Principal, id: string) => getProject(deps, p, id),
    listProjects: (p: Principal) => listProjects(deps, p),
    push: async (p: Principal, req: PushRequest) => {
      try {
        return await push(deps, runner, p, req, reading);
      } catch (e) {
        // A push refused for a full queue did not run: it is not counted (CONTRACT §4).
        if (isParlanceError(e) && e.code === "rate_limited" && p.kind === "key") usage.unrecord(p.key.id);
        throw e;
      }
    },
    getJob: (p: Principal, id: string) => getJob(deps, p, id),
    /** The project's most recent jobs, newest first. */
    listProjectJobs: (p: Principal, projectId: string) => listProjectJobs(deps, p, projectId),
    pull: (p: Principal, req: PullRequest) => pull(deps, p, req),
    /** The pull as a file to send: its tag before any row is read, its pieces when opened. */
    pullFile: (p: Principal, req: PullRequest) => pullFile(deps, p, req),
    coverage: (p: Principal, projectId: string) => coverage(deps, p, projectId),
    listTranslations: (p: Principal, q: Parameters<typeof listTranslations>[2]) =>
      listTranslations(deps, p, q),
    listKeys: (p: Principal, limit?: number, offset?: number) => listKeys(deps, usage, p, limit, offset),
    createKey: (p: Principal, input: NewKey) => createKeyForCaller(deps, p, input),
    deactivateKey: (p: Principal, keyId: string) => deactivateKeyForCaller(deps, p, keyId),
  };

  const people = createPeople(deps);

  return {
    settings,
    storage: deps.storage,
    /** The clock every use case reads; transports stamp their own answers with it too. */
    now: () => deps.clock.now(),
    /** `address` is asked for only when the request has no valid credential. */
    admit: (req: { authorization: string | null; address: () => string }) =>
      admit(deps, settings, usage, req),
    /** `admit` when it can answer without waiting (store and limiter in memory); else `undefined`. */
    admitNow: (req: { authorization: string | null; address: () => string }) =>
      admitNow(deps, settings, usage, req),
    /** `getProject` when the store can answer without waiting; else `undefined` (transports' fast path). */
    getProjectNow: (p: Principal, id: string) => getProjectNow(deps, p, id),
    requestToken: (req: TokenRequest, address: string) => requestToken(deps, settings, usage, req, address),
    keyInfo: (p: KeyPrincipal) => keyInfo(deps, usage, p),
    ...acting,
    /**
     * The host application acting in organization `orgId` on its own authority (no API key): every
     * use case above without its principal argument. `name` is the author history records.
     */
    as: (orgId: string, name?: string) => bindPrincipal(acting, appPrincipal(orgId, name)),
    /** The workspace's people: sign-in, sessions, setup, memberships. */
    people,
    /** Per-record work for people (the workspace API): browse, edit, bulk, keys, history, coverage. */
    records,
    /** Subscribes to an event (job.completed, job.failed, translations.changed); returns the unsubscribe. */
    on: events.on,

    admin: {
      createOrg: (name: string) => admin.createOrg(deps, name),
      listOrgs: () => admin.listOrgs(deps),
      listProjects: (orgId?: string) => admin.listProjects(deps, orgId),
      createProject: (input: Parameters<typeof admin.createProject>[1]) => admin.createProject(deps, input),
      addLanguage: (projectId: string, language: string) => admin.addLanguage(deps, projectId, language),
      deleteProject: (projectId: string) => admin.deleteProject(deps, projectId),
      createKey: (orgId: string, input: NewKey) => admin.createOrgKey(deps, orgId, input),
      deactivateKey: (keyId: string) => admin.deactivateKey(deps, keyId),
      setQuota: (orgId: string, max: number) => admin.setQuota(deps, orgId, max),
      setEnvironmentOverride: (input: Parameters<typeof admin.setEnvironmentOverride>[1]) =>
        admin.setEnvironmentOverride(deps, input),
      listTranslations: (projectId: string, language: string) =>
        admin.listAllTranslations(deps, projectId, language),
      /** An account (password set through the returned reset link's secret). */
      createUser: (input: Parameters<typeof people.operator.createUser>[0]) =>
        people.operator.createUser(input),
      inviteUser: (orgId: string, input: Parameters<typeof people.operator.invite>[1]) =>
        people.operator.invite(orgId, input),
      resetPassword: (email: string) => people.operator.resetPassword(email),
      /** Sets one record's value and/or status as the operator (history names the operator). */
      setRecord: (input: {
        projectId: string;
        language: string;
        key: string;
        value?: string;
        status?: string;
      }) => records.setAsOperator(input.projectId, input),
    },

    /** Creates the first key when the store has none; the full key, or null. */
    bootstrap: () => bootstrap(deps),
    /** Resolves when storage answers. */
    health: () => deps.storage.ping(),
    /**
     * Resumes work left unfinished: a store owned by this one instance releases the leases of jobs
     * the previous process was running; then every claimable job is run, and the store is polled
     * for jobs that become claimable later (every `jobPollMs`) until `close()`.
     */
    async start(): Promise<void> {
      if (!deps.storage.shared) await deps.storage.jobs.releaseLeases(deps.clock.now().toISOString());
      runner.wake();
      runner.poll();
    },
    /** Resolves when this process has no import job queued or running (tests, scripts). */
    idle: () => deps.queue.onIdle(),
    /** Looks for claimable jobs now (`start()` also does so every `jobPollMs`). */
    wakeJobs: () => runner.wake(),
    /** Writes back usage counts and rate-limit windows held in memory. */
    flush,
    /** Stops the job runner (the running job finishes; others stay resumable) and flushes. */
    async close(): Promise<void> {
      await runner.stop();
      await flush();
    },
  };
}

export type Parlance = ReturnType<typeof createParlance>;

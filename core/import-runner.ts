import type { Deps, Settings } from "./context.ts";
import { isParlanceError, ParlanceError } from "./errors.ts";
import type { EventBus } from "./events.ts";
import { parseContent } from "./flatten.ts";
import { newId } from "./ids.ts";
import { type ImportRows, planImportInSlices } from "./import-plan.ts";
import { enforceQuota, quotaOf } from "./quota.ts";
import { importAudit } from "./records/import-audit.ts";
import type { ExistingRow, ImportPayload, Job } from "./types.ts";

/** Logs what must not be lost silently; the composition root decides where it goes. */
export type Logger = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface ImportRunner {
  /** A job was stored: run it soon. */
  accepted(jobId: string): void;
  /**
   * Whether `handOver` would keep a push's rows now: at most one job's rows wait here, so pushes
   * queued behind a long import hold only their keys while checking, as before.
   */
  canHandOver(): boolean;
  /**
   * The rows a push read from its content, for the job it has just stored: when this process
   * claims that job it takes them instead of reading the content back and parsing it again.
   * Ignored when another push's rows are held already.
   */
  handOver(jobId: string, rows: ImportRows): void;
  /** Looks for claimable jobs (after a restart, or a lease another instance let lapse). */
  wake(): void;
  /** Wakes every `settings.jobPollMs` until stopped. */
  poll(): void;
  /**
   * Holds a place in the queue for a push about to store its job; the returned function gives it
   * back once the job is stored (or the push failed). Throws a 429 with Retry-After when the store's
   * unfinished jobs and the places held in this process reach `settings.maxQueuedJobs`.
   */
  reserveSlot(): Promise<() => void>;
  /** Stops claiming; resolves when the job in hand has ended. Unfinished jobs stay resumable. */
  stop(): Promise<void>;
}

/**
 * Applies import jobs in the background through the JobQueue. Jobs are claimed from storage with a
 * lease, so whatever this process accepted survives its death: the next start (or another
 * instance, once the lease lapses) claims the job again. A job's writes and its completion commit
 * together, so a rerun never applies half an import.
 */
export function createImportRunner(
  deps: Deps,
  settings: Settings,
  log: Logger,
  events: EventBus,
  betweenSlices: () => void = () => {},
  duringLargeChecks: () => void = () => {},
): ImportRunner {
  let scheduled = false;
  let stopped = false;
  let poller: ReturnType<typeof setInterval> | null = null;
  /** Pushes between their queue check and their stored job: counted as queued already. */
  let reserved = 0;
  /** Places ever granted: tells a count which places were granted while it ran. */
  let grants = 0;
  /** The rows one push handed over, until its job is claimed here (or by another instance). */
  let handed: { jobId: string; rows: ImportRows } | null = null;

  const wake = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    deps.queue.add(async () => {
      scheduled = false;
      await drain();
    });
  };

  /** One turn of the event loop: requests are answered between imports, not only after them. */
  const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

  async function drain(): Promise<void> {
    while (!stopped) {
      await yieldToEventLoop();
      if (stopped) return;
      const runId = newId();
      const now = deps.clock.now();
      const held = new Set(handed ? [handed.jobId] : []);
      const job = await deps.storage.jobs.claimNext(runId, now.toISOString(), leaseFrom(now.getTime()), held);
      if (!job) {
        // Nothing is claimable: a job whose rows are still held ran elsewhere (another instance).
        if (handed && held.has(handed.jobId)) handed = null;
        return;
      }
      if (job.attempts > settings.jobMaxAttempts) await giveUp(job, runId);
      else await run(job, runId);
    }
  }

  const leaseFrom = (ms: number) => new Date(ms + settings.jobLeaseMs).toISOString();

  async function run(job: Job, runId: string): Promise<void> {
    const renew = setInterval(() => {
      deps.storage.jobs
        .renewLease(job.id, runId, leaseFrom(deps.clock.now().getTime()), deps.clock.now().toISOString())
        .catch((e) => log("warn", "lease renewal failed", { jobId: job.id, error: String(e) }));
    }, settings.jobLeaseMs / 3);
    try {
      await apply(job, runId);
    } catch (e) {
      if (isParlanceError(e) && e.code === "unavailable") {
        // Not the import's fault: it stays unfinished and runs again once its lease ends.
        log("warn", "import job interrupted: storage unavailable", { jobId: job.id, error: e.details });
        return;
      }
      const message = isParlanceError(e) ? e.message : "Import failed: internal error";
      if (!isParlanceError(e)) log("error", "import job failed", { jobId: job.id, error: String(e) });
      await markFailed(job, runId, message);
    } finally {
      clearInterval(renew);
    }
  }

  /**
   * A job that could not be marked failed (the store refused) stays `running` until its lease
   * ends; polling then claims it again, so it never blocks its project for good.
   */
  async function markFailed(job: Job, runId: string, message: string): Promise<void> {
    const at = deps.clock.now().toISOString();
    try {
      if (!(await deps.storage.jobs.fail(job.id, runId, message, at))) return;
    } catch (e) {
      log("error", "could not mark import job failed; it runs again when its lease ends", {
        jobId: job.id,
        error: String(e),
      });
      return;
    }
    const language = job.payload?.language ?? null;
    events.emit("job.failed", {
      jobId: job.id,
      orgId: job.orgId,
      projectId: job.projectId,
      language,
      message,
      at,
    });
  }

  /** A job claimed more often than allowed: each earlier attempt died with its process (or its store). */
  async function giveUp(job: Job, runId: string): Promise<void> {
    const tries = job.attempts - 1;
    log("error", "import job abandoned after repeated crashes", { jobId: job.id, attempts: tries });
    await markFailed(
      job,
      runId,
      `Import failed: it was started ${tries} time${tries === 1 ? "" : "s"} and never finished (the server stopped or lost its database each time), so it is not retried`,
    );
  }

  /**
   * The job's rows: those its push handed over in this process, or else read from its stored bytes,
   * which the job lets go of at once (they are not needed while it runs).
   */
  function takeRows(job: Job): ImportRows {
    const payload = job.payload as ImportPayload;
    job.payload = { ...payload, content: EMPTY };
    if (handed?.jobId !== job.id) return parseContent(payload.content);
    const rows = handed.rows;
    handed = null;
    return rows;
  }

  async function apply(job: Job, runId: string): Promise<void> {
    if (!job.payload) throw new Error("job has no payload");
    const project = await deps.storage.projects.get(job.projectId);
    if (!project || project.deletedAt !== null)
      throw failure("The project was deleted before the import ran");
    if (!project.languages.includes(job.payload.language))
      throw failure("The project no longer has that language");
    const { language, importMode, status } = job.payload;
    let existing: ReadonlyMap<string, ExistingRow> | null = await deps.storage.translations.readLanguage(
      project.id,
      language,
    );
    // No local keeps the rows (or the content): garbage once planned, the writes hold what the
    // commit needs.
    const plan = await planImportInSlices(takeRows(job), existing, importMode, status);
    const payload = job.payload;
    // The rows, and the push's body if it was this process's, are garbage now. A handed-over push's
    // rows outlived the collection at its answer, so only the full collections during a large
    // job's checks free them (with the rows as arrays and new ids made when read, one right
    // after planning freed almost nothing: docs/benchmarks.md, "Push memory, eleventh pass").
    betweenSlices();
    await enforceQuota(deps, project.orgId, await quotaOf(deps, project.orgId), plan);
    const summary =
      payload.importMode === "replace"
        ? { created: plan.created, updated: plan.updated, deleted: plan.deleted }
        : { created: plan.created, updated: plan.updated };
    const at = deps.clock.now().toISOString();
    const audit = await importAudit(
      deps,
      project,
      payload.language,
      existing,
      plan,
      { id: job.id, actor: payload.actor },
      summary,
      at,
      betweenSlices,
      plan.writes.length >= LARGE_PLAN_WRITES ? duringLargeChecks : undefined,
    );
    existing = null; // the commit needs the plan and the audit only
    const done = await deps.storage.jobs.complete(
      job.id,
      runId,
      {
        projectId: project.id,
        language: payload.language,
        writes: plan.writes,
        deleteIds: plan.deleteIds,
        summary,
        audit,
      },
      at,
    );
    if (!done) {
      log("warn", "import job was taken over before it committed", { jobId: job.id });
      return;
    }
    const where = { orgId: project.orgId, projectId: project.id, language: payload.language };
    // Changes first: a listener that waits for the job then reads finds caches already dropped.
    const deleted = summary.deleted ?? 0;
    if (summary.created + summary.updated + deleted > 0) {
      const cause = { kind: "import" as const, jobId: job.id };
      events.emit("translations.changed", { ...where, ...summary, deleted, cause, at });
    }
    events.emit("job.completed", { jobId: job.id, ...where, summary, at });
  }

  return {
    accepted() {
      wake();
    },
    canHandOver: () => handed === null,
    handOver(jobId, rows) {
      handed ??= { jobId, rows };
    },
    wake,
    async reserveSlot() {
      // Places held when the count started, and any granted while it ran: a job stored during the
      // count may be counted twice (refusing early, never admitting too many).
      const [heldBefore, grantsBefore] = [reserved, grants];
      const stored = await deps.storage.jobs.countUnfinished();
      const queued = stored + heldBefore + (grants - grantsBefore);
      if (queued < settings.maxQueuedJobs) {
        reserved++;
        grants++;
        let held = true;
        return () => {
          if (held) reserved--;
          held = false;
        };
      }
      wake();
      throw new ParlanceError(
        "rate_limited",
        `Too many imports are waiting (${queued}); retry in ${QUEUE_FULL_RETRY_AFTER_SECONDS} s`,
        undefined,
        QUEUE_FULL_RETRY_AFTER_SECONDS,
      );
    },
    poll() {
      if (poller || stopped) return;
      poller = setInterval(wake, settings.jobPollMs);
      // Polling alone must not keep a process (a script, a test) alive: Node and Bun timers unref.
      (poller as { unref?: () => void }).unref?.();
    },
    async stop() {
      stopped = true;
      if (poller) clearInterval(poller);
      poller = null;
      await deps.queue.close();
    },
  };
}

/** What a push refused for a full queue waits: long enough for several imports to finish. */
const QUEUE_FULL_RETRY_AFTER_SECONDS = 10;

const EMPTY = new Uint8Array(0);

/**
 * Writes from which a job's checks call `duringLargeChecks` (a full collection on Bun, 10–35 ms
 * each for a 50,000-row job): below it, the rows are too few for their garbage to set the peak.
 */
export const LARGE_PLAN_WRITES = 20_000;

/** A job that cannot run as pushed: failed with this message, not retried. */
const failure = (message: string) => new ParlanceError("invalid_input", message);

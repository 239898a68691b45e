import type { Deps, Settings } from "./context.ts";
import { isParlanceError, ParlanceError } from "./errors.ts";
import type { EventBus } from "./events.ts";
import { parseContent } from "./flatten.ts";
import { newId } from "./ids.ts";
import { planImport } from "./import-plan.ts";
import { enforceQuota, quotaOf } from "./quota.ts";
import type { Job } from "./types.ts";

/** Logs what must not be lost silently; the composition root decides where it goes. */
export type Logger = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface ImportRunner {
  /** A job was stored: run it soon. `rows` spares the runner parsing the content again. */
  accepted(jobId: string, rows: Map<string, string>): void;
  /** Looks for claimable jobs (after a restart, or a lease another instance let lapse). */
  wake(): void;
  /** Stops claiming; resolves when the job in hand has ended. Unfinished jobs stay resumable. */
  stop(): Promise<void>;
}

/** Parsed rows kept for jobs just accepted; a resumed job parses its stored content instead. */
const ROWS_CACHE_SIZE = 4;

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
): ImportRunner {
  const rowsCache = new Map<string, Map<string, string>>();
  let scheduled = false;
  let stopped = false;

  const wake = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    deps.queue.add(async () => {
      scheduled = false;
      await drain();
    });
  };

  async function drain(): Promise<void> {
    while (!stopped) {
      const runId = newId();
      const now = deps.clock.now();
      const job = await deps.storage.jobs.claimNext(runId, now.toISOString(), leaseFrom(now.getTime()));
      if (!job) return;
      await run(job, runId);
    }
  }

  const leaseFrom = (ms: number) => new Date(ms + settings.jobLeaseMs).toISOString();

  async function run(job: Job, runId: string): Promise<void> {
    const renew = setInterval(() => {
      deps.storage.jobs
        .renewLease(job.id, runId, leaseFrom(deps.clock.now().getTime()))
        .catch((e) => log("warn", "lease renewal failed", { jobId: job.id, error: String(e) }));
    }, settings.jobLeaseMs / 3);
    try {
      await apply(job, runId);
    } catch (e) {
      const message = isParlanceError(e) ? e.message : "Import failed: internal error";
      if (!isParlanceError(e)) log("error", "import job failed", { jobId: job.id, error: String(e) });
      const at = deps.clock.now().toISOString();
      if (await deps.storage.jobs.fail(job.id, runId, message, at)) {
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
    } finally {
      clearInterval(renew);
      rowsCache.delete(job.id);
    }
  }

  async function apply(job: Job, runId: string): Promise<void> {
    const payload = job.payload;
    if (!payload) throw new Error("job has no payload");
    const project = await deps.storage.projects.get(job.projectId);
    if (!project || project.deletedAt !== null)
      throw failure("The project was deleted before the import ran");
    if (!project.languages.includes(payload.language))
      throw failure("The project no longer has that language");
    const rows = rowsCache.get(job.id) ?? parseContent(payload.content);
    const existing = await deps.storage.translations.readLanguage(project.id, payload.language);
    const plan = planImport(rows, existing, payload.importMode, payload.status);
    await enforceQuota(deps, project.orgId, await quotaOf(deps, project.orgId), plan);
    const summary =
      payload.importMode === "replace"
        ? { created: plan.created, updated: plan.updated, deleted: plan.deleted }
        : { created: plan.created, updated: plan.updated };
    const at = deps.clock.now().toISOString();
    const done = await deps.storage.jobs.complete(
      job.id,
      runId,
      {
        projectId: project.id,
        language: payload.language,
        writes: plan.writes,
        deleteIds: plan.deleteIds,
        summary,
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
    accepted(jobId, rows) {
      rowsCache.set(jobId, rows);
      if (rowsCache.size > ROWS_CACHE_SIZE) rowsCache.delete(rowsCache.keys().next().value as string);
      wake();
    },
    wake,
    async stop() {
      stopped = true;
      await deps.queue.close();
    },
  };
}

/** A job that cannot run as pushed: failed with this message, not retried. */
const failure = (message: string) => new ParlanceError("invalid_input", message);

import { authorize, isAllowed } from "./authorization.ts";
import { contentTooLarge, MAX_CONTENT_BYTES } from "./content-rules.ts";
import { type Deps, nowIso } from "./context.ts";
import { invalid } from "./errors.ts";
import { contentBytes, parseContentInSlices, validateContentInSlices } from "./flatten.ts";
import { newId } from "./ids.ts";
import { planImport } from "./import-plan.ts";
import type { ImportRunner } from "./import-runner.ts";
import { requireLocale } from "./locale.ts";
import type { Principal } from "./principal.ts";
import { visibleProject } from "./projects.ts";
import { enforceQuota, quotaOf } from "./quota.ts";
import { authorizeStatus } from "./records/context.ts";
import {
  IMPORT_MODES,
  type ImportMode,
  type ImportStatus,
  type Job,
  TRANSLATION_STATUSES,
  type TranslationStatus,
} from "./types.ts";

/** The body of `POST /push` (API.md). */
export interface PushRequest {
  /** The JSON file: text, or its UTF-8 bytes (what the server passes, so no text copy is made). */
  content: string | Uint8Array;
  language: string;
  projectId: string;
  dryRun?: boolean;
  format?: string;
  importMode?: string;
  status?: string;
}

export interface PushPreview {
  dryRun: true;
  importMode: ImportMode;
  language: string;
  rowCount: number;
  toCreate: number;
  toUpdate: number;
  unchanged: number;
  /** replace mode only */
  toDelete?: number;
}

export interface PushAccepted {
  jobId: string;
  runId: string;
}

export type PushResult =
  | { kind: "preview"; preview: PushPreview }
  | { kind: "accepted"; accepted: PushAccepted };

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
  field: string,
): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalid(`${field} must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

/** What the host runs around a push's reading of its content (ParlanceOptions). */
export interface ContentReading {
  /** Once the push's checks passed, right before its content is read, with its size in bytes. */
  before?: (bytes: number) => void;
  /** About once per 1.5 MB read (core/flatten.ts READING_PACE_BYTES). */
  during?: () => void;
}

/** Runners for which a push is reading its rows to hand over (at most one push each). */
const readingToHandOver = new WeakSet<ImportRunner>();

/**
 * Validates a push and either previews it (dry run: nothing written, no job) or records it as a
 * pending import job that the runner applies in the background. Checks run cheapest first and
 * nothing is written before all of them pass.
 */
export async function push(
  deps: Deps,
  runner: ImportRunner,
  principal: Principal,
  req: PushRequest,
  reading: ContentReading = {},
): Promise<PushResult> {
  authorize(principal, "translations.import");
  requireLocale(req.language);
  if ((req.format ?? "json") !== "json")
    throw invalid(`format must be json (got ${JSON.stringify(req.format)})`);
  const importMode = oneOf<ImportMode>(req.importMode, IMPORT_MODES, "merge", "importMode");
  const asked = oneOf<TranslationStatus>(req.status, TRANSLATION_STATUSES, "approved", "status");
  const content = contentBytes(req.content); // throws the 413 of text that cannot fit before any lookup
  if (content.length > MAX_CONTENT_BYTES) throw contentTooLarge(content.length);
  const project = await visibleProject(deps, principal, req.projectId, "projectId");
  if (!project.languages.includes(req.language)) {
    throw invalid(
      `language ${JSON.stringify(req.language)} is not one of the project's languages (${project.languages.join(", ")}); an admin adds it in the workspace's project settings or with parlance admin project add-language`,
    );
  }
  const status = pushStatus(principal, req.status === undefined ? null : asked, req.language);
  // Before the content costs any parsing: a flood of pushes is refused while the queue is full.
  // The slot is held until the job is stored, so racing pushes cannot all see the same room.
  const release = req.dryRun ? () => {} : await runner.reserveSlot();
  let handing = false;
  try {
    const quota = await quotaOf(deps, project.orgId);
    // The parsed rows go to the job when the runner can take them (one push's rows at a time);
    // otherwise only the keys are held while checking, and the job parses its stored bytes.
    // Read in slices: a 12 MB content is 30–300 ms of parsing, which would hold every other request.
    // Pushes read at the same time, so one of them at a time reads its rows to hand over: the
    // others keep only their keys, as when each push was read in one block.
    handing = !req.dryRun && quota === null && runner.canHandOver() && !readingToHandOver.has(runner);
    if (handing) readingToHandOver.add(runner);
    // Every check that needs no parsing has passed: a push refused before this costs no hook.
    reading.before?.(content.length);
    const rows =
      req.dryRun || quota !== null || handing ? await parseContentInSlices(content, reading.during) : null;
    if (rows && (req.dryRun || quota !== null)) {
      const existing = await deps.storage.translations.readLanguage(project.id, req.language);
      const plan = planImport(rows, existing, importMode, status);
      await enforceQuota(deps, project.orgId, quota, plan);
      if (req.dryRun) {
        const preview: PushPreview = {
          dryRun: true,
          importMode,
          language: req.language,
          rowCount: rows.size,
          toCreate: plan.created,
          toUpdate: plan.updated,
          unchanged: plan.unchanged,
        };
        if (importMode === "replace") preview.toDelete = plan.deleted;
        return { kind: "preview", preview };
      }
    } else if (!rows) {
      await validateContentInSlices(content, reading.during);
    }
    const now = nowIso(deps);
    const job: Job = {
      id: newId(),
      orgId: project.orgId,
      projectId: project.id,
      type: "import",
      status: "pending",
      runId: newId(),
      summary: importMode === "replace" ? { created: 0, updated: 0, deleted: 0 } : { created: 0, updated: 0 },
      errorMessage: null,
      payload: { language: req.language, importMode, status, content, actor: principal.actor },
      leaseUntil: null,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    };
    await deps.storage.jobs.create(job);
    if (rows) runner.handOver(job.id, rows);
    runner.accepted(job.id);
    return { kind: "accepted", accepted: { jobId: job.id, runId: job.runId } };
  } finally {
    if (handing) readingToHandOver.delete(runner);
    release();
  }
}

/**
 * The status of a push's rows: the one asked for, else `approved` (API.md). A person who may not
 * review in that language (a developer) approves nothing by importing, as by editing: without a
 * status their new and changed rows are `pending` and the others keep theirs, and asking for
 * `approved` or `needs_review` is refused (403). API keys, the host application and the operator
 * keep the push as API.md has it.
 */
function pushStatus(principal: Principal, asked: TranslationStatus | null, language: string): ImportStatus {
  if (principal.kind !== "user" || isAllowed(principal, "records.review", language))
    return asked ?? "approved";
  if (asked === null) return "pending_if_changed";
  authorizeStatus(principal, asked, language);
  return asked;
}

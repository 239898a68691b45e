import { authorize, isAllowed } from "../authorization.ts";
import { invalid, notFound } from "../errors.ts";
import { requireRow } from "../flatten.ts";
import { newRecordId } from "../ids.ts";
import type { Principal } from "../principal.ts";
import { enforceQuotaForAdded } from "../quota.ts";
import type { Project, TranslationStatus } from "../types.ts";
import { basesOf, checksFor } from "./checks.ts";
import {
  announce,
  authorizeStatus,
  newActivity,
  projectOf,
  type RecordDeps,
  requireLanguage,
  requireStatus,
} from "./context.ts";
import { StaleRecordError } from "./stale.ts";
import type { HistoryAction, RecordState } from "./types.ts";
import { type RecordView, recordView } from "./views.ts";

export interface EditRequest {
  key: unknown;
  language: unknown;
  value?: unknown;
  status?: unknown;
  /** The version read (0: the record must not exist yet); null only for trusted callers: unguarded. */
  version: number | null;
}

async function current(deps: RecordDeps, project: Project, key: string, language: string) {
  const [r] = await deps.storage.records.read(project.id, [key], [language]);
  return r ?? null;
}

/**
 * Sets the value and/or status of one record, guarded by the version the caller read (412 with the
 * current record otherwise). A value change that names no status makes the record `pending`,
 * except for a caller who may review in that language, whose edit keeps the status.
 */
export async function editRecord(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: EditRequest,
): Promise<RecordView> {
  const project = await projectOf(deps, principal, projectId);
  if (typeof req.key !== "string") throw invalid("key must be a string");
  const language = requireLanguage(project, req.language);
  if (req.value !== undefined && typeof req.value !== "string") throw invalid("value must be a string");
  if (req.value === undefined && req.status === undefined) throw invalid("Give a value, a status or both");
  const value = req.value as string | undefined;
  requireRow(req.key, value ?? "");
  const status = req.status === undefined ? undefined : requireStatus(req.status);
  if (req.version === null && principal.kind !== "trusted") throw invalid("version is required");
  if (req.version !== null && (!Number.isSafeInteger(req.version) || req.version < 0)) {
    throw invalid("version must be an integer of 0 or more");
  }
  authorize(principal, "records.edit", language);
  if (status !== undefined) authorizeStatus(principal, status, language);
  return applyOne(deps, principal, project, "edit", {
    key: req.key,
    language,
    value,
    status,
    version: req.version,
  });
}

/** Writes one record's change (edit, revert, operator) with its history entry; 412 on a stale version. */
export async function applyOne(
  deps: RecordDeps,
  principal: Principal,
  project: Project,
  action: HistoryAction,
  c: { key: string; language: string; value?: string; status?: TranslationStatus; version: number | null },
): Promise<RecordView> {
  const now = await current(deps, project, c.key, c.language);
  const stale = (r: RecordState | null) => c.version !== null && (r?.version ?? 0) !== c.version;
  if (stale(now)) throw new StaleRecordError(now && recordView(now));
  if (!now && !isAllowed(principal, "keys.manage")) {
    const known = await deps.storage.records.read(project.id, [c.key], null);
    if (known.length === 0) throw notFound(`The project has no key ${JSON.stringify(c.key)}; add it first`);
  }
  if (!now) await enforceQuotaForAdded(deps, project.orgId, 1);
  const value = c.value ?? now?.value ?? "";
  const status = c.status ?? nextStatus(principal, now, value, c.language);
  if (now && now.value === value && now.status === status) return recordView(now);
  const bases = await basesOf(deps, project, [c.key]);
  const { warnings, rechecks } = await checksFor(deps, project, c.language, new Map([[c.key, value]]), bases);
  const activity = newActivity(deps, principal, project, action, {
    language: c.language,
    key: c.key,
    detail: { records: 1 },
  });
  const outcome = await deps.storage.records.commit({
    projectId: project.id,
    writes: [
      {
        id: now?.id ?? newRecordId(),
        key: c.key,
        language: c.language,
        value,
        status,
        warnings: warnings.get(c.key) ?? [],
        expectVersion: c.version ?? now?.version ?? 0,
        previous: now && { value: now.value, status: now.status },
      },
    ],
    rechecks: now?.value === value ? [] : rechecks,
    activity,
    at: activity.at,
  });
  const after = await current(deps, project, c.key, c.language);
  if (!outcome.ok) throw new StaleRecordError(after && recordView(after));
  announce(
    deps,
    principal,
    project,
    c.language,
    { created: now ? 0 : 1, updated: now ? 1 : 0, deleted: 0 },
    activity.at,
  );
  if (!after) throw new Error("record vanished after its commit");
  return recordView(after);
}

/** A value change keeps the status for reviewers (of that language); otherwise it awaits review. */
function nextStatus(
  principal: Principal,
  now: RecordState | null,
  value: string,
  language: string,
): TranslationStatus {
  if (!now) return "pending";
  if (now.value === value) return now.status;
  return isAllowed(principal, "records.review", language) ? now.status : "pending";
}

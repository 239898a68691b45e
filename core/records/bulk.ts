import { authorize } from "../authorization.ts";
import { invalid, ParlanceError } from "../errors.ts";
import { newRecordId } from "../ids.ts";
import type { Principal } from "../principal.ts";
import { enforceQuotaForAdded } from "../quota.ts";
import type { Project, TranslationStatus } from "../types.ts";
import { type BrowseParams, browseFilter } from "./browse.ts";
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
import type { RecordWrite } from "./types.ts";

export interface BulkRequest {
  language: unknown;
  action: unknown;
  status?: unknown;
  overwrite?: unknown;
  keys?: unknown;
  filter?: unknown;
}

const MAX_KEYS = 50_000;
/** A bulk action that keeps meeting concurrent edits is retried this many times, then 409. */
const ATTEMPTS = 3;

/**
 * A status change or a copy of the base value over a list of keys or the browse filters, in one
 * transaction; how many records changed. `copy-base` fills only missing records unless `overwrite`.
 */
export async function bulkAction(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: BulkRequest,
): Promise<{ changed: number }> {
  const project = await projectOf(deps, principal, projectId);
  const language = requireLanguage(project, req.language);
  let status: TranslationStatus | null = null;
  if (req.action === "status") {
    status = requireStatus(req.status);
    authorizeStatus(principal, status, language);
  } else if (req.action === "copy-base") {
    if (language === project.baseLanguage) throw invalid("copy-base needs a language other than the base");
    authorize(principal, "records.edit", language);
  } else throw invalid('action must be "status" or "copy-base"');
  if (req.overwrite !== undefined && typeof req.overwrite !== "boolean")
    throw invalid("overwrite must be a boolean");
  const keys = await targetKeys(deps, project, language, req);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const writes =
      status !== null
        ? await statusWrites(deps, project, language, keys, status)
        : await copyWrites(deps, project, language, keys, req.overwrite === true);
    if (writes.length === 0) return { changed: 0 };
    await enforceQuotaForAdded(deps, project.orgId, writes.filter((w) => w.previous === null).length);
    const detail: Record<string, string | number> = { records: writes.length, action: req.action as string };
    if (status !== null) detail.status = status;
    const activity = newActivity(deps, principal, project, "bulk", { language, detail });
    const outcome = await deps.storage.records.commit({
      projectId: project.id,
      writes,
      rechecks: [],
      activity,
      at: activity.at,
    });
    if (outcome.ok) {
      const created = writes.filter((w) => w.previous === null).length;
      announce(
        deps,
        principal,
        project,
        language,
        { created, updated: writes.length - created, deleted: 0 },
        activity.at,
      );
      return { changed: writes.length };
    }
  }
  throw new ParlanceError("conflict", "Records kept changing during the bulk action; try again");
}

async function targetKeys(
  deps: RecordDeps,
  project: Project,
  language: string,
  req: BulkRequest,
): Promise<string[]> {
  if (req.keys !== undefined && req.filter !== undefined)
    throw invalid("Give either keys or filter, not both");
  if (req.keys !== undefined) {
    if (!Array.isArray(req.keys) || !req.keys.every((k) => typeof k === "string"))
      throw invalid("keys must be an array of strings");
    if (req.keys.length > MAX_KEYS) throw invalid(`keys may list at most ${MAX_KEYS} keys`);
    return [...new Set(req.keys as string[])];
  }
  if (
    req.filter === undefined ||
    req.filter === null ||
    typeof req.filter !== "object" ||
    Array.isArray(req.filter)
  ) {
    throw invalid("Give keys (an array) or filter (an object of browse filters)");
  }
  const f = req.filter as Record<string, unknown>;
  const params: BrowseParams = {};
  for (const name of ["missing", "status", "warnings", "changedSince", "changedBy", "q"] as const) {
    const v = f[name];
    if (v === undefined) continue;
    if (typeof v === "boolean") params[name] = String(v);
    else if (Array.isArray(v) && name === "status") params.status = v.join(",");
    else if (typeof v === "string") params[name] = v;
    else throw invalid(`filter.${name} has the wrong type`);
  }
  const unknown = Object.keys(f).filter(
    (k) => !["missing", "status", "warnings", "changedSince", "changedBy", "q"].includes(k),
  );
  if (unknown.length > 0) throw invalid(`filter has unknown members: ${unknown.join(", ")}`);
  return deps.storage.records.matchKeys({
    projectId: project.id,
    baseLanguage: project.baseLanguage,
    languages: [language],
    language,
    projectLanguages: project.languages,
    filter: browseFilter(params),
    after: null,
    limit: MAX_KEYS,
  });
}

async function statusWrites(
  deps: RecordDeps,
  project: Project,
  language: string,
  keys: string[],
  status: TranslationStatus,
): Promise<RecordWrite[]> {
  const records = await deps.storage.records.read(project.id, keys, [language]);
  return records
    .filter((r) => r.status !== status)
    .map((r) => ({
      id: r.id,
      key: r.key,
      language,
      value: r.value,
      status,
      warnings: r.warnings,
      expectVersion: r.version,
      previous: { value: r.value, status: r.status },
    }));
}

async function copyWrites(
  deps: RecordDeps,
  project: Project,
  language: string,
  keys: string[],
  overwrite: boolean,
): Promise<RecordWrite[]> {
  const bases = await basesOf(deps, project, keys);
  const records = new Map(
    (await deps.storage.records.read(project.id, keys, [language])).map((r) => [r.key, r]),
  );
  const values = new Map<string, string>();
  for (const [key, base] of bases) {
    const r = records.get(key);
    if (base.value === "" || r?.value === base.value) continue;
    if (r && r.value !== "" && !overwrite) continue;
    values.set(key, base.value);
  }
  const { warnings } = await checksFor(deps, project, language, values, bases);
  return [...values].map(([key, value]) => {
    const r = records.get(key);
    // A copy of the base is not yet a translation: it is a draft to translate.
    return {
      id: r?.id ?? newRecordId(),
      key,
      language,
      value,
      status: "draft" as const,
      warnings: warnings.get(key) ?? [],
      expectVersion: r?.version ?? 0,
      previous: r ? { value: r.value, status: r.status } : null,
    };
  });
}

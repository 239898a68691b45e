import { checkTranslation, type Warning } from "../checks/index.ts";
import type { Deps } from "../context.ts";
import { newId } from "../ids.ts";
import type { ImportPlan } from "../import-plan.ts";
import type { ImportAudit } from "../ports.ts";
import type { Actor } from "../principal.ts";
import type { ExistingRow, ImportSummary, Project } from "../types.ts";

/** How long checks run before the event loop gets a turn. */
const SLICE_MS = 8;
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A job accepted before history existed names no author: history shows it as the operator's. */
const UNKNOWN: Actor = { kind: "operator" };

/**
 * What the import job's commit needs for history and checks: each write's previous state and
 * warnings, what each deleted row held, and, when the base language changes, the new warnings of
 * the other languages' records of the changed keys. One read per language involved.
 */
export async function importAudit(
  deps: Deps,
  project: Project,
  language: string,
  existing: ReadonlyMap<string, ExistingRow>,
  plan: ImportPlan,
  job: { id: string; actor: Actor | undefined },
  summary: ImportSummary,
  at: string,
): Promise<ImportAudit> {
  const actor = job.actor ?? UNKNOWN;
  const base = project.baseLanguage;
  const isBase = language === base;
  const baseRows = isBase ? null : await baseValues(deps, project, plan);
  const check = (key: string, value: string): Warning[] =>
    checkTranslation({
      base: baseRows ? baseRows(key) : null,
      value,
      baseLanguage: base,
      language,
    });
  const previous = plan.writes.map((w) => {
    const old = existing.get(w.key);
    return old ? { value: old.value, status: old.status } : null;
  });
  const byId = new Map<string, [string, ExistingRow]>();
  if (plan.deleteIds.length > 0) for (const [key, row] of existing) byId.set(row.id, [key, row]);
  const deleted = plan.deleteIds.map((id) => {
    const [key, row] = byId.get(id) ?? ["", { id, value: "", status: "draft" as const }];
    return { key, value: row.value, status: row.status };
  });
  const rechecks = isBase ? await recheckOthers(deps, project, existing, plan, deleted) : [];
  const warnings: Warning[][] = [];
  let since = performance.now();
  for (const w of plan.writes) {
    warnings.push(check(w.key, w.value));
    // 50,000 checks take a quarter of a second: requests are answered between slices of them.
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
  return {
    actor,
    jobId: job.id,
    previous,
    warnings,
    deleted,
    rechecks,
    activity: {
      id: newId(),
      projectId: project.id,
      action: "import",
      actor,
      jobId: job.id,
      language,
      key: null,
      detail: { ...summary },
      at,
    },
  };
}

/** Below this many writes, the base values of just their keys are read instead of the whole base. */
const PROBE_BASE_BELOW = 10_000;

/** The base value of each key the plan writes (null where the base has no record). */
async function baseValues(
  deps: Deps,
  project: Project,
  plan: ImportPlan,
): Promise<(key: string) => string | null> {
  if (plan.writes.length === 0) return () => null;
  if (plan.writes.length < PROBE_BASE_BELOW) {
    const keys = plan.writes.map((w) => w.key);
    const records = await deps.storage.records.read(project.id, keys, [project.baseLanguage]);
    const values = new Map(records.map((r) => [r.key, r.value]));
    return (key) => values.get(key) ?? null;
  }
  const rows = await deps.storage.translations.readLanguage(project.id, project.baseLanguage);
  return (key) => rows.get(key)?.value ?? null;
}

/** The base changed: every other language's record of a changed key is checked against the new base. */
async function recheckOthers(
  deps: Deps,
  project: Project,
  existing: ReadonlyMap<string, ExistingRow>,
  plan: ImportPlan,
  deleted: { key: string }[],
): Promise<ImportAudit["rechecks"]> {
  const newBase = new Map<string, string | null>();
  for (const w of plan.writes) if (existing.get(w.key)?.value !== w.value) newBase.set(w.key, w.value);
  for (const d of deleted) newBase.set(d.key, null);
  if (newBase.size === 0) return [];
  const out: ImportAudit["rechecks"] = [];
  for (const language of project.languages) {
    if (language === project.baseLanguage) continue;
    const rows = await deps.storage.translations.readLanguage(project.id, language);
    for (const [key, base] of newBase) {
      const row = rows.get(key);
      if (!row) continue;
      const input = { base, value: row.value, baseLanguage: project.baseLanguage, language };
      out.push({ id: row.id, warnings: checkTranslation(input) });
    }
  }
  return out;
}

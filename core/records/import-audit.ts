import { checkTranslation, type Warning } from "../checks/index.ts";
import type { Deps } from "../context.ts";
import { newId } from "../ids.ts";
import type { ImportPlan } from "../import-plan.ts";
import type { ImportAudit } from "../ports.ts";
import type { Actor } from "../principal.ts";
import type { ExistingRow, ImportSummary, Project, TranslationWrite } from "../types.ts";

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
  betweenSlices: () => void = () => {},
  collect?: () => void,
): Promise<ImportAudit> {
  const actor = job.actor ?? UNKNOWN;
  const base = project.baseLanguage;
  const isBase = language === base;
  const turns = { since: performance.now() };
  const previous = await previousOf(plan.writes, existing, turns);
  const byId = new Map<string, [string, ExistingRow]>();
  if (plan.deleteIds.length > 0) for (const [key, row] of existing) byId.set(row.id, [key, row]);
  const deleted = plan.deleteIds.map((id) => {
    const [key, row] = byId.get(id) ?? ["", { id, value: "", status: "draft" as const }];
    return { key, value: row.value, status: row.status };
  });
  const rechecks = isBase ? await recheckOthers(deps, project, existing, plan, deleted) : [];
  const warnings: (readonly Warning[])[] = [];
  const baseValues = isBase ? null : await baseReader(deps, project, plan);
  const batches = Math.ceil(plan.writes.length / CHECK_BATCH_ROWS);
  // `collect` at the quarters: RSS climbs about 0.8 MiB a batch between two of them.
  const spacing = Math.ceil(batches / (COLLECTIONS_IN_CHECKS + 1)) * CHECK_BATCH_ROWS;
  // In batches: where the store reads values by key, each batch holds the base values of its own
  // keys only (the whole base language read at once was about 20 MiB alive for 50,000 rows).
  for (let i = 0; i < plan.writes.length; i += CHECK_BATCH_ROWS) {
    // Young collections between batches only, once the last batch's base values are garbage: one
    // taken while a batch is being checked promotes its values to the old generation, where only a
    // full collection frees them (about 15 MiB piled up that way over a 50,000-row job).
    if (i > 0 && i % spacing === 0 && collect) collect();
    else if (i > 0) betweenSlices();
    await checkBatch(plan.writes, i, baseValues, base, language, warnings, turns);
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

/**
 * Each write's row as it was before the import, null for a created one, giving the event loop a
 * turn every SLICE_MS: 50,000 lookups in one block took about as long as the plan (docs/benchmarks.md,
 * "The import stall, eleventh pass"). Made here rather than kept by
 * the plan, so that no such array lives through the plan (a push's peak memory).
 */
async function previousOf(
  writes: readonly TranslationWrite[],
  existing: ReadonlyMap<string, ExistingRow>,
  turns: { since: number },
): Promise<ImportAudit["previous"]> {
  const previous: ImportAudit["previous"] = [];
  for (let i = 0; i < writes.length; i++) {
    const old = existing.get((writes[i] as TranslationWrite).key);
    previous.push(old ? { value: old.value, status: old.status } : null);
    if (i % 1024 === 1023 && performance.now() - turns.since >= SLICE_MS) {
      await nextTurn();
      turns.since = performance.now();
    }
  }
  return previous;
}

/**
 * Checks the writes of one batch from `from` into `warnings`, giving the event loop a turn every
 * SLICE_MS. A function of its own so that nothing of the batch (its base values) is referenced
 * once it returns.
 */
async function checkBatch(
  writes: readonly TranslationWrite[],
  from: number,
  baseValues: ((batch: readonly TranslationWrite[]) => Promise<BaseOf>) | null,
  baseLanguage: string,
  language: string,
  warnings: (readonly Warning[])[],
  turns: { since: number },
): Promise<void> {
  const batch = writes.slice(from, from + CHECK_BATCH_ROWS);
  const baseOf = baseValues ? await baseValues(batch) : null;
  for (const w of batch) {
    const found = checkTranslation({
      base: baseOf ? baseOf(w.key) : null,
      value: w.value,
      baseLanguage,
      language,
    });
    warnings.push(found.length === 0 ? NO_WARNINGS : found);
    // 50,000 checks take a quarter of a second: requests are answered between slices of them.
    if (performance.now() - turns.since >= SLICE_MS) {
      await nextTurn();
      turns.since = performance.now();
    }
  }
}

/** Writes checked per batch, with the base values of their keys read for the batch. */
const CHECK_BATCH_ROWS = 2_000;

/**
 * Times `collect` runs in a job's checks, evenly spaced. One, halfway, let the base values read
 * since pile up again, 0.6–1 MiB a batch over a 50,000-row job's last 12 batches, to a peak above
 * the push's own (docs/benchmarks.md, "Push memory, thirteenth pass").
 */
export const COLLECTIONS_IN_CHECKS = 3;

/** One list for every write without a warning (most of them), instead of 50,000 empty ones. */
const NO_WARNINGS: readonly Warning[] = Object.freeze([]);

/** Without `readValues`: below this many writes the records of their keys, else the whole base. */
const PROBE_BASE_BELOW = 10_000;

type BaseOf = (key: string) => string | null;

/** Gives, for a batch of the plan's writes, the base value of each key (null where it has none). */
async function baseReader(
  deps: Deps,
  project: Project,
  plan: ImportPlan,
): Promise<(batch: readonly TranslationWrite[]) => Promise<BaseOf>> {
  const { translations, records } = deps.storage;
  const base = project.baseLanguage;
  if (translations.readValues) {
    const read = translations.readValues.bind(translations);
    return async (batch) => {
      const values = await read(
        project.id,
        base,
        batch.map((w) => w.key),
      );
      return (key) => values.get(key) ?? null;
    };
  }
  let all: BaseOf = () => null;
  const keys = plan.writes.length;
  if (keys > 0 && keys < PROBE_BASE_BELOW) {
    const found = await records.read(
      project.id,
      plan.writes.map((w) => w.key),
      [base],
    );
    const values = new Map(found.map((r) => [r.key, r.value]));
    all = (key) => values.get(key) ?? null;
  } else if (keys > 0) {
    const rows = await translations.readLanguage(project.id, base);
    all = (key) => rows.get(key)?.value ?? null;
  }
  return async () => all;
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

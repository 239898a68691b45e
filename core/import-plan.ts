import { newRecordId } from "./ids.ts";
import { nextTurn, SLICE_MS } from "./next-turn.ts";
import type { ExistingRow, ImportMode, TranslationStatus, TranslationWrite } from "./types.ts";

/** What an import would change in one language: the preview and the job compute it alike. */
export interface ImportPlan {
  writes: TranslationWrite[];
  /**
   * Aligned with `writes`: the row each replaces as it was read, null for a created one. The
   * job's history needs it, and looking every key up again cost as much as planning.
   */
  previous: (ExistingRow | null)[];
  deleteIds: string[];
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/**
 * merge: creates and updates, other keys stay. replace: the language ends up holding exactly the
 * content's keys. A row counts as updated only when its value or status changes.
 */
export function planImport(
  rows: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: TranslationStatus,
): ImportPlan {
  const steps = planSteps(rows, existing, mode, status);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `planImport`, giving the event loop a turn every SLICE_MS: for 50,000 rows it is 50,000 lookups
 * and comparisons of values, 30–90 ms in one block under load, which every request waiting then
 * shared (docs/benchmarks.md, "The import stall, eleventh pass"). The maps must not change meanwhile.
 */
export async function planImportInSlices(
  rows: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: TranslationStatus,
): Promise<ImportPlan> {
  const steps = planSteps(rows, existing, mode, status);
  let since = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/** Rows planned between two looks at the clock. */
const ROWS_PER_STEP = 1024;

function* planSteps(
  rows: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: TranslationStatus,
): Generator<void, ImportPlan> {
  const writes: TranslationWrite[] = [];
  const previous: (ExistingRow | null)[] = [];
  let created = 0;
  let updated = 0;
  let n = 0;
  for (const [key, value] of rows) {
    if (++n % ROWS_PER_STEP === 0) yield;
    const row = existing.get(key);
    if (!row) {
      writes.push({ id: newRecordId(), key, value, status });
      previous.push(null);
      created++;
    } else if (row.value !== value || row.status !== status) {
      writes.push({ id: row.id, key, value, status });
      previous.push(row);
      updated++;
    }
  }
  const deleteIds: string[] = [];
  if (mode === "replace") {
    for (const [key, row] of existing) {
      if (++n % ROWS_PER_STEP === 0) yield;
      if (!rows.has(key)) deleteIds.push(row.id);
    }
  }
  return {
    writes,
    previous,
    deleteIds,
    created,
    updated,
    unchanged: rows.size - created - updated,
    deleted: deleteIds.length,
  };
}

/** Rows the organization would hold after the plan: the quota compares this (CONTRACT §6). */
export const rowsAfter = (rowsNow: number, plan: ImportPlan): number => rowsNow - plan.deleted + plan.created;

import { newRecordNumber, recordIdOf } from "./ids.ts";
import { nextTurn, SLICE_MS } from "./next-turn.ts";
import type { ExistingRow, ImportMode, ImportStatus, TranslationStatus, TranslationWrite } from "./types.ts";

/** What an import would change in one language: the preview and the job compute it alike. */
export interface ImportPlan {
  writes: TranslationWrite[];
  deleteIds: string[];
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/**
 * A content's rows as a plan reads them: a `Map` of key → value, or the rows a push read
 * (core/flatten.ts `ContentRows`, two arrays instead of a map).
 */
export interface ImportRows {
  readonly size: number;
  has(key: string): boolean;
  forEach(each: (value: string, key: string) => void): void;
  /**
   * The rows from index `from` on, until `each` answers false; answers the index after the last
   * row given. Lets a plan stop and go on later; a `Map` has none (its keys are walked instead).
   */
  forEachFrom?(from: number, each: (value: string, key: string) => boolean): number;
}

/**
 * A new row's write: its id is made from its number each time it is read (the commit reads it
 * once or twice, a chunk at a time), so a plan of 50,000 new rows holds no id string. The id is
 * on the prototype: a copy made by spreading a write must name `id` (the memory and Postgres
 * stores do).
 */
class NewRowWrite implements TranslationWrite {
  constructor(
    readonly key: string,
    readonly value: string,
    readonly status: TranslationStatus,
    private readonly n: number,
  ) {}

  get id(): string {
    return recordIdOf(this.n);
  }
}

/**
 * merge: creates and updates, other keys stay. replace: the language ends up holding exactly the
 * content's keys. A row counts as updated only when its value or status changes.
 */
export function planImport(
  rows: ImportRows,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: ImportStatus,
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
 * shared (docs/benchmarks.md, "The import stall, eleventh pass"). The rows and `existing` must not
 * change meanwhile.
 */
export async function planImportInSlices(
  rows: ImportRows,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: ImportStatus,
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

/** The plan, stopping (a `yield`) every ROWS_PER_STEP rows. */
function* planSteps(
  rows: ImportRows,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  asked: ImportStatus,
): Generator<void, ImportPlan> {
  // pending_if_changed: new and changed rows pending, and a status alone is never changed.
  const keepStatus = asked === "pending_if_changed";
  const status: TranslationStatus = keepStatus ? "pending" : asked;
  const writes: TranslationWrite[] = [];
  let created = 0;
  let updated = 0;
  let n = 0;
  const plan = (value: string, key: string): boolean => {
    const row = existing.get(key);
    if (!row) {
      writes.push(new NewRowWrite(key, value, status, newRecordNumber()));
      created++;
    } else if (row.value !== value || (row.status !== status && !keepStatus)) {
      writes.push({ id: row.id, key, value, status });
      updated++;
    }
    return ++n % ROWS_PER_STEP !== 0;
  };
  if (rows.forEachFrom) {
    // By index, not for…of: no [key, value] array per row.
    for (let from = 0; from < rows.size; yield) from = rows.forEachFrom(from, plan);
  } else if (rows instanceof Map) {
    for (const key of rows.keys()) if (!plan(rows.get(key) as string, key)) yield;
  } else {
    // Rows that can neither stop nor be walked by key: planned in one block.
    rows.forEach((value, key) => {
      plan(value, key);
    });
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
    deleteIds,
    created,
    updated,
    unchanged: rows.size - created - updated,
    deleted: deleteIds.length,
  };
}

/** Rows the organization would hold after the plan: the quota compares this (CONTRACT §6). */
export const rowsAfter = (rowsNow: number, plan: ImportPlan): number => rowsNow - plan.deleted + plan.created;

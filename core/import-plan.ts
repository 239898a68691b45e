import { newRecordNumber, recordIdOf } from "./ids.ts";
import type { ExistingRow, ImportMode, TranslationStatus, TranslationWrite } from "./types.ts";

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
  status: TranslationStatus,
): ImportPlan {
  const writes: TranslationWrite[] = [];
  let created = 0;
  let updated = 0;
  // forEach, not for…of: no [key, value] array per row.
  rows.forEach((value, key) => {
    const row = existing.get(key);
    if (!row) {
      writes.push(new NewRowWrite(key, value, status, newRecordNumber()));
      created++;
    } else if (row.value !== value || row.status !== status) {
      writes.push({ id: row.id, key, value, status });
      updated++;
    }
  });
  const deleteIds: string[] = [];
  if (mode === "replace") {
    for (const [key, row] of existing) if (!rows.has(key)) deleteIds.push(row.id);
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

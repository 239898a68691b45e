import { newRecordId } from "./ids.ts";
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
 * merge: creates and updates, other keys stay. replace: the language ends up holding exactly the
 * content's keys. A row counts as updated only when its value or status changes.
 */
export function planImport(
  rows: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, ExistingRow>,
  mode: ImportMode,
  status: TranslationStatus,
): ImportPlan {
  const writes: TranslationWrite[] = [];
  let created = 0;
  let updated = 0;
  for (const [key, value] of rows) {
    const row = existing.get(key);
    if (!row) {
      writes.push({ id: newRecordId(), key, value, status });
      created++;
    } else if (row.value !== value || row.status !== status) {
      writes.push({ id: row.id, key, value, status });
      updated++;
    }
  }
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

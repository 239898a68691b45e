import type { RecordState } from "../../core/records/types.ts";
import { getOrCreate } from "./get-or-create.ts";

/** project → language → key → record: the shape every read and every import touches. */
export type TranslationTable = Map<string, Map<string, Map<string, RecordState>>>;

const EMPTY: ReadonlyMap<string, RecordState> = new Map();

export function languageRows(
  table: TranslationTable,
  projectId: string,
  language: string,
): ReadonlyMap<string, RecordState> {
  return table.get(projectId)?.get(language) ?? EMPTY;
}

/**
 * The export version of each language's rows (TranslationStore.exportVersion): every writer goes
 * through `writableLanguageRows`, which moves it. Counters are enough here: the store lives and
 * dies with the process, and project ids are new in each.
 */
const versions = new WeakMap<ReadonlyMap<string, RecordState>, number>();

/** The rows of one language, for a caller about to change them (or its environment overrides). */
export function writableLanguageRows(
  table: TranslationTable,
  projectId: string,
  language: string,
): Map<string, RecordState> {
  const languages = getOrCreate(table, projectId, () => new Map<string, Map<string, RecordState>>());
  const rows = getOrCreate(languages, language, () => new Map<string, RecordState>());
  versions.set(rows, (versions.get(rows) ?? 0) + 1);
  return rows;
}

export function exportVersion(table: TranslationTable, projectId: string, language: string): string {
  const rows = table.get(projectId)?.get(language);
  return rows ? String(versions.get(rows) ?? 0) : "-";
}

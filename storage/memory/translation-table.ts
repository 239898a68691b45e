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

export function writableLanguageRows(
  table: TranslationTable,
  projectId: string,
  language: string,
): Map<string, RecordState> {
  const languages = getOrCreate(table, projectId, () => new Map<string, Map<string, RecordState>>());
  return getOrCreate(languages, language, () => new Map<string, RecordState>());
}

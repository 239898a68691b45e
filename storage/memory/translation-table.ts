import type { Translation } from "../../core/types.ts";
import { getOrCreate } from "./get-or-create.ts";

/** project → language → key → row: the shape every read and every import touches. */
export type TranslationTable = Map<string, Map<string, Map<string, Translation>>>;

const EMPTY: ReadonlyMap<string, Translation> = new Map();

export function languageRows(
  table: TranslationTable,
  projectId: string,
  language: string,
): ReadonlyMap<string, Translation> {
  return table.get(projectId)?.get(language) ?? EMPTY;
}

export function writableLanguageRows(
  table: TranslationTable,
  projectId: string,
  language: string,
): Map<string, Translation> {
  const languages = getOrCreate(table, projectId, () => new Map<string, Map<string, Translation>>());
  return getOrCreate(languages, language, () => new Map<string, Translation>());
}

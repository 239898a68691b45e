import type { EnvironmentStore } from "../../core/ports.ts";
import { getOrCreate } from "./get-or-create.ts";
import { type TranslationTable, writableLanguageRows } from "./translation-table.ts";

export function createMemoryEnvironmentStore(table: TranslationTable): EnvironmentStore {
  // project → environment → language → key → value
  const overrides = new Map<string, Map<string, Map<string, Map<string, string>>>>();
  return {
    async set({ projectId, environment, language, key, value }) {
      const environments = getOrCreate(
        overrides,
        projectId,
        () => new Map<string, Map<string, Map<string, string>>>(),
      );
      const languages = getOrCreate(environments, environment, () => new Map<string, Map<string, string>>());
      getOrCreate(languages, language, () => new Map<string, string>()).set(key, value);
      // An override changes what pulls of its language with that environment write.
      writableLanguageRows(table, projectId, language);
    },
    async list(projectId, environment, language) {
      return new Map(overrides.get(projectId)?.get(environment)?.get(language));
    },
    async exists(projectId, environment) {
      return overrides.get(projectId)?.has(environment) ?? false;
    },
  };
}

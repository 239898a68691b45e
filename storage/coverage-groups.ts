import type { LanguageCoverage } from "../core/ports.ts";
import type { TranslationStatus } from "../core/types.ts";
import type { CoverageGroup } from "./coverage-tally.ts";

/** How the SQL adapters keep counted groups: one JSON array of [language, status, records, warnings]. */
export const groupsJson = (groups: readonly CoverageGroup[]): string =>
  JSON.stringify(groups.map((g) => [g.language, g.status, g.records, g.warnings]));

export const groupsFromJson = (json: string): CoverageGroup[] =>
  (JSON.parse(json) as [string, TranslationStatus, number, number][]).map(
    ([language, status, records, warnings]) => ({ language, status, records, warnings }),
  );

/**
 * The API's coverage (CONTRACT §8) from the same groups the workspace reads: the base language's
 * records are the reference keys, each language's records over every status its filled keys.
 */
export function languageCoverage(groups: readonly CoverageGroup[], baseLanguage: string): LanguageCoverage {
  const filled = new Map<string, number>();
  for (const g of groups) filled.set(g.language, (filled.get(g.language) ?? 0) + g.records);
  return { referenceKeyCount: filled.get(baseLanguage) ?? 0, filled };
}

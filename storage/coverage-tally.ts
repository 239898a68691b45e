import type { PeopleCoverage } from "../core/records/types.ts";
import type { TranslationStatus } from "../core/types.ts";

/** One group of the SQL adapters' coverage query: records of a language in a status, and how many warn. */
export interface CoverageGroup {
  language: string;
  status: TranslationStatus;
  records: number;
  warnings: number;
}

/**
 * People's coverage per language from counts of non-empty records whose key is non-empty in the
 * base, grouped by language and status: the base's own groups give the reference keys.
 */
export function tallyCoverage(
  groups: readonly CoverageGroup[],
  baseLanguage: string,
  languages: readonly string[],
): PeopleCoverage[] {
  const reference = groups.filter((g) => g.language === baseLanguage).reduce((n, g) => n + g.records, 0);
  return languages.map((language) => {
    const c: PeopleCoverage = {
      language,
      referenceKeys: reference,
      missing: reference,
      draft: 0,
      pending: 0,
      needs_review: 0,
      approved: 0,
      warnings: 0,
    };
    for (const g of groups) {
      if (g.language !== language) continue;
      c[g.status] += g.records;
      c.missing -= g.records;
      c.warnings += g.warnings;
    }
    return c;
  });
}

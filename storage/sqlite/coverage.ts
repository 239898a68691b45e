import type { Database } from "bun:sqlite";
import type { TranslationStatus } from "../../core/types.ts";
import { groupsFromJson, groupsJson } from "../coverage-groups.ts";
import type { CoverageGroup } from "../coverage-tally.ts";
import { int, type Statements } from "./statements.ts";

/** The coverage groups of a project: kept counts while they hold, else counted (and kept). */
export type CoverageGroups = (projectId: string, baseLanguage: string) => CoverageGroup[];

/**
 * Counting walks every record of the project (seconds at 50,000 keys in 10 languages), so the
 * counts are kept in coverage_counts (migration 9) with the project's export versions at the time.
 * Every change of a record replaces its language's version in the change's own transaction, from
 * any connection or process (migration 7), so kept counts are used only while every version is the
 * same. Versions and counts are read in one transaction, so a kept pair always belongs together.
 * `versions` holds them as a JSON object, language → version.
 */
export function createSqliteCoverage(db: Database, s: Statements): CoverageGroups {
  const count = s.prepare<
    { language: string; status: string; n: number | bigint; w: number | bigint },
    [string, string]
  >(
    // Each record probes its key's base record through the (project, language, key) index. A join
    // driven by the base rows had to find every language's record by key alone, which no index
    // orders: 50,000 keys took minutes and held the event loop (the dashboard hung).
    // `filled` and `flagged` are the stored value <> '' and warnings IS NOT NULL: the browse index
    // holds them, so neither side reads a row.
    `SELECT t.language AS language, t.status AS status, COUNT(*) AS n, SUM(t.flagged) AS w
     FROM translations t
     WHERE t.project_id = ?1 AND t.filled = 1
       AND EXISTS (SELECT 1 FROM translations b
                   WHERE b.project_id = ?1 AND b.language = ?2 AND b.key = t.key AND b.filled = 1)
     GROUP BY t.language, t.status`,
  );
  const some = s.prepare<
    { language: string; status: string; n: number | bigint; w: number | bigint },
    [string, string, string]
  >(
    `SELECT t.language AS language, t.status AS status, COUNT(*) AS n, SUM(t.flagged) AS w
     FROM translations t
     WHERE t.project_id = ?1 AND t.language IN (SELECT value FROM json_each(?3)) AND t.filled = 1
       AND EXISTS (SELECT 1 FROM translations b
                   WHERE b.project_id = ?1 AND b.language = ?2 AND b.key = t.key AND b.filled = 1)
     GROUP BY t.language, t.status`,
  );
  const versions = s.prepare<{ language: string; tag: string }, [string]>(
    "SELECT language, tag FROM export_versions WHERE project_id = ?",
  );
  const kept = s.prepare<{ base_language: string; versions: string; groups: string }, [string]>(
    "SELECT base_language, versions, groups FROM coverage_counts WHERE project_id = ?",
  );
  const keep = s.prepare<never, [string, string, string, string]>(
    "INSERT OR REPLACE INTO coverage_counts (project_id, base_language, versions, groups) VALUES (?, ?, ?, ?)",
  );
  const toGroup = (r: { language: string; status: string; n: number | bigint; w: number | bigint }) => ({
    language: r.language,
    status: r.status as TranslationStatus,
    records: int(r.n),
    warnings: int(r.w),
  });
  // A language's coverage depends on its own records and the base's only: when the base's version
  // is unchanged, only the languages whose version moved are counted again (one import or edit
  // touches one language: a tenth of the work in a 10-language project).
  const read = db.transaction((projectId: string, baseLanguage: string) => {
    const now: Record<string, string> = {};
    for (const v of versions.all(projectId)) now[v.language] = v.tag;
    const row = kept.get(projectId);
    if (row && row.base_language === baseLanguage) {
      const was = JSON.parse(row.versions) as Record<string, string>;
      const languages = new Set([...Object.keys(was), ...Object.keys(now)]);
      const changed = [...languages].filter((l) => was[l] !== now[l]);
      if (changed.length === 0) return { groups: groupsFromJson(row.groups), now, counted: false };
      if (!changed.includes(baseLanguage)) {
        const unchanged = groupsFromJson(row.groups).filter((g) => !changed.includes(g.language));
        const recounted = some.all(projectId, baseLanguage, JSON.stringify(changed)).map(toGroup);
        return { groups: [...unchanged, ...recounted], now, counted: true };
      }
    }
    return { groups: count.all(projectId, baseLanguage).map(toGroup), now, counted: true };
  });

  return (projectId, baseLanguage) => {
    const { groups, now, counted } = read(projectId, baseLanguage);
    if (counted) keep.run(projectId, baseLanguage, JSON.stringify(now), groupsJson(groups));
    return groups;
  };
}

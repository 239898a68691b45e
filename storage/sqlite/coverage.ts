import type { Database } from "bun:sqlite";
import type { TranslationStatus } from "../../core/types.ts";
import { groupsFromJson, groupsJson } from "../coverage-groups.ts";
import type { CoverageGroup } from "../coverage-tally.ts";
import { int, type Statements } from "./statements.ts";

/** The coverage groups of a project: kept counts while they hold, else counted (and kept). */
export type CoverageGroups = (projectId: string, baseLanguage: string) => CoverageGroup[];

/**
 * Counting walks every record of the project, so the counts are kept in coverage_counts with the
 * project's generation at the time; the triggers of migration 9 bump the generation on every change
 * that can move them, from any connection. A read transaction makes the count and the generation
 * it is tagged with one snapshot; the counts are stored only if the generation has not moved since.
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
  const kept = s.prepare<
    {
      gen: number | bigint;
      counted_gen: number | bigint | null;
      base_language: string | null;
      groups: string | null;
    },
    [string]
  >("SELECT gen, counted_gen, base_language, groups FROM coverage_counts WHERE project_id = ?");
  const track = s.prepare<never, [string]>("INSERT OR IGNORE INTO coverage_counts (project_id) VALUES (?)");
  const keep = s.prepare<never, [string, number, string, string]>(
    "UPDATE coverage_counts SET counted_gen = ?2, base_language = ?3, groups = ?4 WHERE project_id = ?1 AND gen = ?2",
  );
  const countNow = db.transaction((projectId: string, baseLanguage: string) => {
    const gen = int(kept.get(projectId)?.gen ?? 0);
    const groups = count.all(projectId, baseLanguage).map((r) => ({
      language: r.language,
      status: r.status as TranslationStatus,
      records: int(r.n),
      warnings: int(r.w),
    }));
    return { gen, groups };
  });

  return (projectId, baseLanguage) => {
    const row = kept.get(projectId);
    if (
      row?.groups != null &&
      row.counted_gen !== null &&
      int(row.counted_gen) === int(row.gen) &&
      row.base_language === baseLanguage
    ) {
      return groupsFromJson(row.groups);
    }
    // The row exists before counting, so every later change bumps its generation.
    if (!row) track.run(projectId);
    const { gen, groups } = countNow(projectId, baseLanguage);
    keep.run(projectId, gen, baseLanguage, groupsJson(groups));
    return groups;
  };
}

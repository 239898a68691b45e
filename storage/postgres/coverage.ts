import type { Sql } from "postgres";
import type { TranslationStatus } from "../../core/types.ts";
import { groupsFromJson, groupsJson } from "../coverage-groups.ts";
import type { CoverageGroup } from "../coverage-tally.ts";
import { num, str } from "./convert.ts";

/** The coverage groups of a project: kept counts while they hold, else counted (and kept). */
export type CoverageGroups = (projectId: string, baseLanguage: string) => Promise<CoverageGroup[]>;

/** Every language's export version of the project, in one text. */
const VERSIONS = `coalesce((SELECT string_agg(language || '=' || tag, ',' ORDER BY language COLLATE "C")
                            FROM export_versions v WHERE v.project_id = $1), '')`;

/**
 * Records of each language and status whose key the base language (`$2`) has, both values filled,
 * in project `$1`. Text, so that a test can ask for its plan.
 */
export const COVERAGE_COUNT_SQL = `SELECT t.language, t.status, count(*) AS n, count(t.warnings) AS w
  FROM translations b JOIN translations t ON t.project_id = b.project_id AND t.key = b.key
  WHERE b.project_id = $1 AND b.language = $2 AND b.value <> '' AND t.value <> ''
  GROUP BY t.language, t.status`;

/** The count's planner settings, for its transaction only (see where it runs). */
export const COVERAGE_COUNT_SETTINGS =
  "set_config('jit', 'off', true), set_config('enable_nestloop', 'off', true)";

/**
 * Counting walks every record of the project, so the counts are kept in coverage_counts (migration
 * 9) with the project's export versions at the time. Every change of a record replaces its
 * language's version in the change's own transaction, on every instance (migration 7), so kept
 * counts are used only while every version is the same. Versions and counts come from one snapshot
 * (REPEATABLE READ), so a kept pair always belongs together, whichever instance stored it last.
 */
export function createPostgresCoverage(sql: Sql): CoverageGroups {
  return async (projectId, baseLanguage) => {
    // Prepared (unsafe text is not by default): planned once per connection, not on every request.
    const [kept] = await sql.unsafe(
      `SELECT base_language, groups, versions = ${VERSIONS} AS current FROM coverage_counts WHERE project_id = $1`,
      [projectId],
      { prepare: true },
    );
    if (kept?.current && str(kept.base_language) === baseLanguage) return groupsFromJson(str(kept.groups));

    const counted = await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
      // In a large table the project's rows are costed as pages read at random, past jit_above_cost:
      // LLVM compiled the count in each worker, a fifth to a third of its time (docs/decisions.md).
      // No nested loop: before the table's first ANALYZE the planner counted a row a side and
      // scanned the project's rows once for each base row (4 s for 3,000 keys; docs/decisions.md,
      // "Joins by key before the first ANALYZE").
      await tx.unsafe(`SELECT ${COVERAGE_COUNT_SETTINGS}`);
      const [now] = await tx.unsafe(`SELECT ${VERSIONS} AS versions`, [projectId]);
      const rows = await tx.unsafe(COVERAGE_COUNT_SQL, [projectId, baseLanguage], { prepare: true });
      return {
        versions: str(now?.versions),
        groups: rows.map((r) => ({
          language: str(r.language),
          status: str(r.status) as TranslationStatus,
          records: num(r.n),
          warnings: num(r.w),
        })),
      };
    });
    await sql`
      INSERT INTO coverage_counts (project_id, base_language, versions, groups)
      VALUES (${projectId}, ${baseLanguage}, ${counted.versions}, ${groupsJson(counted.groups)})
      ON CONFLICT (project_id) DO UPDATE
      SET base_language = excluded.base_language, versions = excluded.versions, groups = excluded.groups`;
    return counted.groups;
  };
}

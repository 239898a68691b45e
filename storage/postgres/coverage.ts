import type { Sql } from "postgres";
import type { TranslationStatus } from "../../core/types.ts";
import { groupsFromJson, groupsJson } from "../coverage-groups.ts";
import type { CoverageGroup } from "../coverage-tally.ts";
import { num, str } from "./convert.ts";

/** The coverage groups of a project: kept counts while they hold, else counted (and kept). */
export type CoverageGroups = (projectId: string, baseLanguage: string) => Promise<CoverageGroup[]>;

/**
 * Counting walks every record of the project, so the counts are kept in coverage_counts with the
 * snapshot they were counted in. Every statement writing translations notes its transaction in
 * coverage_changes (migration 9): kept counts hold while every noted change is visible in their
 * snapshot. Writers take no lock for this, so instances never wait on each other; a change still
 * in progress is not visible to the check either, and makes the counts stale once it commits.
 */
export function createPostgresCoverage(sql: Sql): CoverageGroups {
  return async (projectId, baseLanguage) => {
    const [kept] = await sql`
      SELECT c.base_language, c.groups,
             EXISTS (SELECT 1 FROM coverage_changes x
                     WHERE x.project_id = c.project_id AND NOT pg_visible_in_snapshot(x.xid, c.snapshot)) AS stale
      FROM coverage_counts c WHERE c.project_id = ${projectId}`;
    if (kept && !kept.stale && str(kept.base_language) === baseLanguage)
      return groupsFromJson(str(kept.groups));

    // The count and its snapshot are one: REPEATABLE READ takes the snapshot at the first statement.
    const { snapshot, groups } = await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
      const [now] = await tx`SELECT pg_current_snapshot()::text AS snapshot`;
      const rows = await tx`
        SELECT t.language, t.status, count(*) AS n, count(t.warnings) AS w
        FROM translations b JOIN translations t ON t.project_id = b.project_id AND t.key = b.key
        WHERE b.project_id = ${projectId} AND b.language = ${baseLanguage} AND b.value <> '' AND t.value <> ''
        GROUP BY t.language, t.status`;
      return {
        snapshot: str(now?.snapshot),
        groups: rows.map((r) => ({
          language: str(r.language),
          status: str(r.status) as TranslationStatus,
          records: num(r.n),
          warnings: num(r.w),
        })),
      };
    });
    // Kept only over older counts: a snapshot with a larger xmax was taken later and saw every
    // change the older one saw, so the notes it saw can go (they would otherwise pile up).
    await sql.begin(async (tx) => {
      const stored = await tx`
        INSERT INTO coverage_counts (project_id, snapshot, base_language, groups)
        VALUES (${projectId}, ${snapshot}::pg_snapshot, ${baseLanguage}, ${groupsJson(groups)})
        ON CONFLICT (project_id) DO UPDATE
        SET snapshot = excluded.snapshot, base_language = excluded.base_language, groups = excluded.groups
        WHERE pg_snapshot_xmax(coverage_counts.snapshot) < pg_snapshot_xmax(excluded.snapshot)
        RETURNING 1`;
      if (stored.length > 0) {
        await tx`
          DELETE FROM coverage_changes
          WHERE project_id = ${projectId} AND pg_visible_in_snapshot(xid, ${snapshot}::pg_snapshot)`;
      }
    });
    return groups;
  };
}

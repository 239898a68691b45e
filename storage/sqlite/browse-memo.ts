import { createProjectMemo, type Remember } from "../project-memo.ts";
import type { Statements } from "./statements.ts";

/**
 * SQLite's browse memo (storage/project-memo.ts): counts kept per project while its export
 * versions stay the same. Reading them is one probe of a small table (microseconds); the counts
 * they spare scan a language's index (tens of milliseconds at 50,000 keys). Call `of` inside the
 * browse's read transaction, so the versions and the counts are of one snapshot.
 */
export interface BrowseMemo {
  of(projectId: string): Remember;
}

export function createBrowseMemo(s: Statements): BrowseMemo {
  const versions = s.prepare<{ v: string | null }, [string]>(
    `SELECT group_concat(language || '=' || tag, ',') AS v
     FROM (SELECT language, tag FROM export_versions WHERE project_id = ? ORDER BY language)`,
  );
  const memo = createProjectMemo();
  return { of: (projectId) => memo.of(projectId, versions.get(projectId)?.v ?? "") };
}

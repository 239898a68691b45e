import type { Statements } from "./statements.ts";

/** Past this many entries a project's memo starts over; past this many projects, the whole memo. */
const MAX_ENTRIES = 256;
const MAX_PROJECTS = 64;

/**
 * Browse results that only a write can change (counts, totals, the keys a text matches), kept per
 * project for as long as that project's records are unchanged: a write to one project leaves the
 * others' remembered counts in place.
 *
 * "Unchanged" is the project's export versions (migration 7, storage/sqlite/export-versions.ts):
 * every change of a record, by any path, connection or process, gives its language a new tag in
 * the change's own transaction. Reading them is one probe of a small table (microseconds); the
 * counts they spare scan a language's index (tens of milliseconds at 50,000 keys). Call `of`
 * inside the browse's read transaction, so the versions and the counts are of one snapshot.
 */
export interface BrowseMemo {
  /** The memo of one project as it is now: `remember(key, compute)` gives the kept value or computes it. */
  of(projectId: string): <T>(key: string, compute: () => T) => T;
}

export function createBrowseMemo(s: Statements): BrowseMemo {
  const versions = s.prepare<{ v: string | null }, [string]>(
    `SELECT group_concat(language || '=' || tag, ',') AS v
     FROM (SELECT language, tag FROM export_versions WHERE project_id = ? ORDER BY language)`,
  );
  const projects = new Map<string, { version: string; entries: Map<string, unknown> }>();
  return {
    of(projectId) {
      const version = versions.get(projectId)?.v ?? "";
      let kept = projects.get(projectId);
      if (!kept || kept.version !== version) {
        if (!kept && projects.size >= MAX_PROJECTS) projects.clear();
        kept = { version, entries: new Map() };
        projects.set(projectId, kept);
      }
      const { entries } = kept;
      return <T>(key: string, compute: () => T): T => {
        if (entries.has(key)) return entries.get(key) as T;
        if (entries.size >= MAX_ENTRIES) entries.clear();
        const value = compute();
        entries.set(key, value);
        return value;
      };
    },
  };
}

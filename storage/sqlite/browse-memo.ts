import type { Statements } from "./statements.ts";

/** Past this many entries a project's memo starts over; past this many projects, the whole memo. */
const MAX_ENTRIES = 256;
const MAX_PROJECTS = 64;

/**
 * Browse results that only a write can change (counts, totals, the keys a text matches), kept per
 * project for as long as that project's records are unchanged.
 *
 * Changes are seen two ways, each costing a few microseconds (the counts they spare scan a
 * language's index, tens of milliseconds at 50,000 keys):
 * - another connection's commit moves `PRAGMA data_version`: every project is forgotten;
 * - this connection's writes move `total_changes()`. A write that runs through `wrote` names the
 *   one project whose records it may change (or none: a job's state, a session, a rate window), so
 *   only that project is forgotten. Any other write (an organization or project deleted, a path
 *   nobody named) leaves `total_changes()` unexplained, and every project is forgotten: a path
 *   that forgets to say what it writes costs speed, never correctness.
 */
export interface BrowseMemo {
  /** The value remembered for `key` in `projectId`, or `compute`'s, then remembered. */
  remember<T>(projectId: string, key: string, compute: () => T): T;
  /** Runs a synchronous write that changes records of `projectId` only (null: of no project). */
  wrote<T>(projectId: string | null, run: () => T): T;
}

export function createBrowseMemo(s: Statements): BrowseMemo {
  const own = s.prepare<{ n: number | bigint }, []>("SELECT total_changes() AS n");
  const others = s.prepare<{ data_version: number | bigint }, []>("PRAGMA data_version");
  const projects = new Map<string, Map<string, unknown>>();
  const changes = () => Number(own.get()?.n);
  /** total_changes() after the last write this memo can account for. */
  let accounted = Number.NaN;
  let seenOthers = Number.NaN;
  return {
    remember<T>(projectId: string, key: string, compute: () => T): T {
      const now = changes();
      const version = Number(others.get()?.data_version);
      if (now !== accounted || version !== seenOthers) {
        projects.clear();
        accounted = now;
        seenOthers = version;
      }
      let entries = projects.get(projectId);
      if (!entries) {
        if (projects.size >= MAX_PROJECTS) projects.clear();
        entries = new Map();
        projects.set(projectId, entries);
      }
      if (entries.has(key)) return entries.get(key) as T;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      const value = compute();
      entries.set(key, value);
      return value;
    },
    wrote<T>(projectId: string | null, run: () => T): T {
      const before = changes();
      try {
        return run();
      } finally {
        // Only when nothing unexplained came before: otherwise the next read forgets everything.
        if (before === accounted) accounted = changes();
        if (projectId !== null) projects.delete(projectId);
      }
    },
  };
}

/** Past this many entries a project's memo starts over; past this many projects, the whole memo. */
const MAX_ENTRIES = 256;
const MAX_PROJECTS = 64;

/** Gives the value kept for `key`, or computes and keeps it. */
export type Remember = <T>(key: string, compute: () => T) => T;

/** The same for computations that may fail: only a value that arrived is kept. */
export type RememberAsync = <T>(key: string, compute: () => Promise<T>) => Promise<T>;

/**
 * Browse results that only a write can change (counts, totals, the keys a text matches), kept per
 * project for as long as the project's version is the one they were computed at. The version is
 * the project's export versions (migration 7): every change of a record, by any path, connection,
 * process or instance, gives its language a new tag in the change's own transaction. The caller
 * reads it in the browse's own snapshot, so the counts kept belong to that version.
 */
export function createProjectMemo() {
  const projects = new Map<string, { version: string; entries: Map<string, unknown> }>();
  return {
    of(projectId: string, version: string): Remember & { async: RememberAsync } {
      let kept = projects.get(projectId);
      if (!kept || kept.version !== version) {
        if (!kept && projects.size >= MAX_PROJECTS) projects.clear();
        kept = { version, entries: new Map() };
        projects.set(projectId, kept);
      }
      const { entries } = kept;
      const keep = (key: string, value: unknown) => {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, value);
      };
      const remember = <T>(key: string, compute: () => T): T => {
        if (entries.has(key)) return entries.get(key) as T;
        const value = compute();
        keep(key, value);
        return value;
      };
      const async: RememberAsync = async (key, compute) => {
        if (entries.has(key)) return entries.get(key) as Awaited<ReturnType<typeof compute>>;
        const value = await compute();
        keep(key, value);
        return value;
      };
      return Object.assign(remember, { async });
    },
  };
}

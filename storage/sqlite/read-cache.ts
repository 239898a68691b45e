import type { Statements } from "./statements.ts";

/**
 * Keys, projects and organizations are read on every request and written rarely, so their rows
 * are kept per connection and dropped whenever anything may have changed them: a write through
 * this adapter (`clear()`), or a commit by another connection, such as an operator command, which
 * `PRAGMA data_version` reports. So a change takes effect on the very next request (CONTRACT §11).
 */
export interface ReadCache {
  /** The cached row for `key`, or what `load` returns (null results are not kept). */
  read<T>(key: string, load: () => T | null): T | null;
  clear(): void;
}

/** Past this many entries the cache starts over, so lookups of unknown ids cannot grow it. */
const MAX_ENTRIES = 10_000;

export function createReadCache(s: Statements): ReadCache {
  const version = s.prepare<{ data_version: number | bigint }, []>("PRAGMA data_version");
  const entries = new Map<string, unknown>();
  let seen = Number.NaN;
  return {
    read<T>(key: string, load: () => T | null): T | null {
      const current = Number(version.get()?.data_version);
      if (current !== seen) {
        seen = current;
        entries.clear();
      }
      const hit = entries.get(key) as T | undefined;
      if (hit !== undefined) return hit;
      const value = load();
      if (value === null) return null;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, value);
      return value;
    },
    clear: () => entries.clear(),
  };
}

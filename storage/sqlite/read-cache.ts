import type { Statements } from "./statements.ts";

/**
 * Keys, projects and organizations are read on every request and written rarely, so their rows
 * are kept per connection and dropped whenever anything may have changed them: a write through
 * this adapter (`clear()`), or a commit by another connection, such as an operator command, which
 * `PRAGMA data_version` reports. On a WAL file that pragma costs about as much as the read it saves
 * (each statement opens a read transaction), so it runs at most once per millisecond: a request
 * that arrives more than 1 ms after another process committed sees the change, and no operator
 * command can finish and have its caller send a request faster than that (CONTRACT §11).
 */
export interface ReadCache {
  /**
   * One kind of row (keys by hash, projects by id…), looked up by its own key: a map per kind
   * rather than a prefixed key, which cost a string to build and hash on every lookup.
   */
  space<T>(): CacheSpace<T>;
  /** Drops every kind's rows. */
  clear(): void;
}

export interface CacheSpace<T> {
  /**
   * The cached row for `key`, or what `load(key)` returns (null results are not kept). `load` is
   * handed the key so that a hot caller passes one function made once, not a closure per read.
   */
  read(key: string, load: (key: string) => T | null): T | null;
}

/** Past this many entries a kind starts over, so lookups of unknown ids cannot grow it. */
const MAX_ENTRIES = 10_000;
const CHECK_EVERY_MS = 1;

export function createReadCache(s: Statements): ReadCache {
  const version = s.prepare<{ data_version: number | bigint }, []>("PRAGMA data_version");
  const spaces: Map<string, unknown>[] = [];
  const clear = () => {
    for (const entries of spaces) entries.clear();
  };
  let seen = Number.NaN;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const check = () => {
    const now = performance.now();
    if (now - checkedAt < CHECK_EVERY_MS) return;
    checkedAt = now;
    const current = Number(version.get()?.data_version);
    if (current !== seen) {
      seen = current;
      clear();
    }
  };
  return {
    space<T>(): CacheSpace<T> {
      const entries = new Map<string, T>();
      spaces.push(entries);
      return {
        read(key, load) {
          check();
          const hit = entries.get(key);
          if (hit !== undefined) return hit;
          const value = load(key);
          if (value === null) return null;
          if (entries.size >= MAX_ENTRIES) entries.clear();
          entries.set(key, value);
          return value;
        },
      };
    },
    clear,
  };
}

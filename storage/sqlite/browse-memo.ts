import type { Statements } from "./statements.ts";

/** Past this many entries the memo starts over. */
const MAX_ENTRIES = 256;

/**
 * Remembers browse results that only a write can change (counts, totals, the keys a text matches),
 * for as long as the database is unchanged: `total_changes()` moves with this connection's
 * writes, `PRAGMA data_version` with any other connection's commit. Both cost a few microseconds;
 * the counts they spare scan a language's index (tens of milliseconds at 50,000 keys).
 */
export function createBrowseMemo(s: Statements) {
  const own = s.prepare<{ n: number | bigint }, []>("SELECT total_changes() AS n");
  const others = s.prepare<{ data_version: number | bigint }, []>("PRAGMA data_version");
  const entries = new Map<string, unknown>();
  let seen = "";
  return function memo<T>(key: string, compute: () => T): T {
    const version = `${own.get()?.n}:${others.get()?.data_version}`;
    if (version !== seen || entries.size >= MAX_ENTRIES) {
      entries.clear();
      seen = version;
    }
    if (entries.has(key)) return entries.get(key) as T;
    const value = compute();
    entries.set(key, value);
    return value;
  };
}

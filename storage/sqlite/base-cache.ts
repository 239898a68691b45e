import { compareCodePoints } from "../../core/code-point.ts";

/**
 * A base language's `key, value` rows kept between XLIFF pulls of its other languages: reading
 * them is about a fifth of such a pull (docs/benchmarks.md, "The SQLite XLIFF pull, the base kept
 * per version and read between pulls, fourteenth pass"). An entry holds the rows read at one
 * export-version tag of the base: every write to the base changes the tag in its own transaction,
 * whichever process or connection makes it, so a hit is the rows the reader's snapshot would read.
 */

export interface BaseRow {
  key: string;
  value: string;
}

export interface BaseEntry {
  /** The base's export-version tag in the snapshot that read the rows. */
  readonly tag: string;
  /** Every row of the base, in ascending code-point order of key. */
  readonly rows: readonly BaseRow[];
}

/**
 * Budget of the entries, as estimated by `estimate`: one 50,000-key base like the bench's is about
 * 29 MiB estimated (16 MiB of heap measured: the engine keeps Latin-1 text in a byte a character).
 */
export const BASE_CACHE_BYTES = 32 * 1024 * 1024;

/** A row's heap at most: two bytes a character, an object and its two strings. */
export const rowBytes = (r: BaseRow): number => 96 + 2 * (r.key.length + r.value.length);

const estimate = (rows: readonly BaseRow[]): number => {
  let bytes = 0;
  for (const r of rows) bytes += rowBytes(r);
  return bytes;
};

export interface BaseCache {
  /** Estimated bytes the entries may hold together; a base above it is never kept. */
  readonly budget: number;
  /** The entry of (project, language) if it was read at `tag`; undefined otherwise. */
  get(projectId: string, language: string, tag: string): BaseEntry | undefined;
  /** Keeps `entry`, in place of the language's older one; least recently used entries go first. */
  set(projectId: string, language: string, entry: BaseEntry): void;
  /** Forgets the languages' entries (a write here changed them: their memory is freed at once). */
  drop(projectId: string, languages: Iterable<string>): void;
  /** Remembers that the base of (project, language) at `tag` passed the budget. */
  markTooBig(projectId: string, language: string, tag: string): void;
  /** Whether the base at `tag` passed the budget: a fill would read it only to throw it away. */
  tooBig(projectId: string, language: string, tag: string): boolean;
}

export function createBaseCache(budget = BASE_CACHE_BYTES): BaseCache {
  // Insertion order is recency: a hit is moved to the end.
  const entries = new Map<string, BaseEntry & { bytes: number }>();
  // One tag per (project, language): small, and replaced once the base's tag changes.
  const over = new Map<string, string>();
  let total = 0;
  const remove = (id: string) => {
    const old = entries.get(id);
    if (!old) return;
    total -= old.bytes;
    entries.delete(id);
  };
  return {
    budget,
    get(projectId, language, tag) {
      const id = `${projectId}\u0000${language}`;
      const entry = entries.get(id);
      if (!entry || entry.tag !== tag) return undefined;
      entries.delete(id);
      entries.set(id, entry);
      return entry;
    },
    set(projectId, language, entry) {
      const id = `${projectId}\u0000${language}`;
      remove(id);
      const bytes = estimate(entry.rows);
      if (bytes > budget) {
        over.set(id, entry.tag);
        return;
      }
      over.delete(id);
      for (const [oldest] of entries) {
        if (total + bytes <= budget) break;
        remove(oldest);
      }
      entries.set(id, { ...entry, bytes });
      total += bytes;
    },
    drop(projectId, languages) {
      for (const language of languages) {
        remove(`${projectId}\u0000${language}`);
        over.delete(`${projectId}\u0000${language}`);
      }
    },
    markTooBig(projectId, language, tag) {
      const id = `${projectId}\u0000${language}`;
      remove(id);
      over.set(id, tag);
    },
    tooBig(projectId, language, tag) {
      return over.get(`${projectId}\u0000${language}`) === tag;
    },
  };
}

/** The first index at or after `from` whose key sorts after `last` (rows.length if none). */
export function indexAfter(rows: readonly BaseRow[], last: string, from: number): number {
  let lo = from;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints((rows[mid] as BaseRow).key, last) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

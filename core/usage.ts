import type { KeyStore, UsageIncrement } from "./ports.ts";
import type { ApiKey } from "./types.ts";

/**
 * Counts served requests per key in memory and writes them back in batches, so a small request
 * costs no database write (CONTRACT §4 counts every served request; the figures shown add what is
 * still pending here to what the store holds).
 *
 * A count shown is the stored count plus what is pending here, and the two must describe the same
 * moment: a key read before a flush committed, added to what is pending after it, would show a
 * count that went backwards; one read after the commit, added to the batch still in flight, would
 * count that batch twice. So a key read is paired with pending counts only when no flush started
 * or ran while it was read; otherwise the key is read again once the flush has ended.
 */
export interface UsageTracker {
  /** One served request of the key at `atMs` (epoch milliseconds: no date formatting per request). */
  record(keyId: string, atMs: number): void;
  /** Takes back a request recorded but then refused with 429 (CONTRACT §4: not counted). */
  unrecord(keyId: string): void;
  /** Call before reading a key from the store; hand the result to `noteRead` with the key read. */
  stamp(): number | null;
  /** Remembers when `key` was read, so `view` can use it as it is when no flush intervened. */
  noteRead(key: ApiKey, stamp: number | null): void;
  /** The key with pending usage added: as given when it is still current, else read again with `reread`. */
  view(key: ApiKey, reread: () => Promise<ApiKey | null>): Promise<ApiKey>;
  /** Runs a read of keys and `show` on its result, with pending usage agreeing with what was read. */
  settledRead<T, R>(
    read: () => Promise<T>,
    show: (result: T, live: (key: ApiKey) => ApiKey) => R,
  ): Promise<R>;
  /** Writes pending counts back; safe to call concurrently with record() and itself. */
  flush(): Promise<void>;
}

interface Pending {
  count: number;
  lastMs: number;
}

/**
 * The epoch a key object was read at, kept on the object under a private symbol (stores hand out a
 * copy per read): a WeakMap did the same at about 2 µs a request on the small-GET path.
 */
const READ_AT = Symbol("usage epoch of the read");
type Stamped = ApiKey & { [READ_AT]?: number };

export function createUsageTracker(keys: KeyStore): UsageTracker {
  let pending = new Map<string, Pending>();
  /** Flushes started so far: a read stamped with the current value saw every earlier commit. */
  let epoch = 0;
  let flushing: Promise<void> | null = null;

  const add = (keyId: string, count: number, atMs: number) => {
    const entry = pending.get(keyId);
    if (entry) {
      entry.count += count;
      if (atMs > entry.lastMs) entry.lastMs = atMs;
    } else pending.set(keyId, { count, lastMs: atMs });
  };
  const live = (key: ApiKey): ApiKey => {
    const entry = pending.get(key.id);
    if (!entry) return key;
    // lastMs 0: only a taken-back request is pending, which says nothing about the last use.
    const mine = entry.lastMs === 0 ? null : new Date(entry.lastMs).toISOString();
    const lastUsedAt = mine === null || (key.lastUsedAt && key.lastUsedAt > mine) ? key.lastUsedAt : mine;
    return { ...key, usageCount: key.usageCount + entry.count, lastUsedAt };
  };
  const settle = () => flushing?.catch(() => {});

  async function settledRead<T, R>(
    read: () => Promise<T>,
    show: (result: T, live: (key: ApiKey) => ApiKey) => R,
  ): Promise<R> {
    for (;;) {
      while (flushing) await settle();
      const before = epoch;
      const result = await read();
      // Same epoch and nothing in flight: no flush overlapped the read.
      if (!flushing && epoch === before) return show(result, live);
    }
  }

  async function writeBack(): Promise<void> {
    if (pending.size === 0) return;
    epoch++;
    const batch = pending;
    pending = new Map();
    const increments: UsageIncrement[] = [...batch].map(([keyId, p]) => ({
      keyId,
      count: p.count,
      lastUsedAt: new Date(p.lastMs).toISOString(),
    }));
    try {
      await keys.addUsage(increments);
    } catch (e) {
      // Put the counts back so a failed write loses nothing; the next flush retries.
      for (const [keyId, p] of batch) add(keyId, p.count, p.lastMs);
      throw e;
    }
  }

  return {
    record: (keyId, atMs) => add(keyId, 1, atMs),
    unrecord: (keyId) => add(keyId, -1, 0),
    stamp: () => (flushing ? null : epoch),
    noteRead(key, stamp) {
      if (stamp !== null) (key as Stamped)[READ_AT] = stamp;
    },
    async view(key, reread) {
      if (!flushing && (key as Stamped)[READ_AT] === epoch) return live(key);
      return settledRead(
        async () => (await reread()) ?? key,
        (fresh, show) => show(fresh),
      );
    },
    settledRead,
    async flush() {
      while (flushing) await settle();
      const run = writeBack();
      flushing = run;
      try {
        await run;
      } finally {
        flushing = null;
      }
    },
  };
}

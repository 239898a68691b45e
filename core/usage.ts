import type { KeyStore, UsageIncrement } from "./ports.ts";
import type { ApiKey } from "./types.ts";

/**
 * Counts served requests per key in memory and writes them back in batches, so a small request
 * costs no database write (CONTRACT §4 counts every served request; the figures shown add what is
 * still pending here to what the store holds).
 */
export interface UsageTracker {
  /** One served request of the key at `atMs` (epoch milliseconds: no date formatting per request). */
  record(keyId: string, atMs: number): void;
  /** The key with this process's pending usage added. */
  live(key: ApiKey): ApiKey;
  /** Writes pending counts back; safe to call concurrently with record(). */
  flush(): Promise<void>;
}

interface Pending {
  count: number;
  lastMs: number;
}

export function createUsageTracker(keys: KeyStore): UsageTracker {
  let pending = new Map<string, Pending>();
  const add = (keyId: string, count: number, atMs: number) => {
    const entry = pending.get(keyId);
    if (entry) {
      entry.count += count;
      if (atMs > entry.lastMs) entry.lastMs = atMs;
    } else pending.set(keyId, { count, lastMs: atMs });
  };
  return {
    record: (keyId, atMs) => add(keyId, 1, atMs),
    live(key) {
      const entry = pending.get(key.id);
      if (!entry) return key;
      const mine = new Date(entry.lastMs).toISOString();
      const lastUsedAt = key.lastUsedAt && key.lastUsedAt > mine ? key.lastUsedAt : mine;
      return { ...key, usageCount: key.usageCount + entry.count, lastUsedAt };
    },
    async flush() {
      if (pending.size === 0) return;
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
    },
  };
}

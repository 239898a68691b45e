import type { KeyStore, UsageIncrement } from "./ports.ts";
import type { ApiKey } from "./types.ts";

/**
 * Counts served requests per key in memory and writes them back in batches, so a small request
 * costs no database write (CONTRACT §4 counts every served request; the figures shown add what is
 * still pending here to what the store holds).
 */
export interface UsageTracker {
  record(keyId: string, at: string): void;
  /** The key with this process's pending usage added. */
  live(key: ApiKey): ApiKey;
  /** Writes pending counts back; safe to call concurrently with record(). */
  flush(): Promise<void>;
}

export function createUsageTracker(keys: KeyStore): UsageTracker {
  let pending = new Map<string, UsageIncrement>();
  return {
    record(keyId, at) {
      const entry = pending.get(keyId);
      if (entry) {
        entry.count++;
        if (at > entry.lastUsedAt) entry.lastUsedAt = at;
      } else pending.set(keyId, { keyId, count: 1, lastUsedAt: at });
    },
    live(key) {
      const entry = pending.get(key.id);
      if (!entry) return key;
      const lastUsedAt =
        key.lastUsedAt && key.lastUsedAt > entry.lastUsedAt ? key.lastUsedAt : entry.lastUsedAt;
      return { ...key, usageCount: key.usageCount + entry.count, lastUsedAt };
    },
    async flush() {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await keys.addUsage([...batch.values()]);
      } catch (e) {
        // Put the counts back so a failed write loses nothing; the next flush retries.
        for (const inc of batch.values()) {
          const entry = pending.get(inc.keyId);
          if (entry) {
            entry.count += inc.count;
            if (inc.lastUsedAt > entry.lastUsedAt) entry.lastUsedAt = inc.lastUsedAt;
          } else pending.set(inc.keyId, inc);
        }
        throw e;
      }
    },
  };
}

import type { Clock, RateDecision, RateLimiter, RateWindow, RateWindowStore } from "../core/ports.ts";

export interface MemoryRateLimiterOptions {
  /**
   * Most buckets held at once (default 100,000, about 20 MB). Past it, the window that started
   * first is forgotten, ended or not: memory stays bounded however many client addresses appear.
   */
  maxBuckets?: number;
}

/** How often ended windows are dropped, in the limiter's own (request) time. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed-window limiter for a single server instance: windows live in memory, so a request costs
 * no database write; `flush()` writes changed windows to the store (periodically and at shutdown)
 * and `createMemoryRateLimiter` reloads them, so a restart does not hand out a fresh hour.
 */
export async function createMemoryRateLimiter(
  store: RateWindowStore | null,
  clock: Clock,
  options: MemoryRateLimiterOptions = {},
): Promise<RateLimiter & { size(): number }> {
  const maxBuckets = options.maxBuckets ?? 100_000;
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1)
    throw new Error("maxBuckets must be a positive integer");
  const nowMs = clock.now().getTime();
  // In the order the windows started (a new window re-inserts its bucket), so the first entry is
  // the oldest window: the one to forget when the map is full.
  const windows = new Map<string, RateWindow>();
  const dirty = new Set<string>();
  if (store) {
    const loaded = (await store.load(nowMs)).sort((a, b) => a.resetAt - b.resetAt);
    for (const w of loaded.slice(-maxBuckets)) windows.set(w.bucket, w);
  }
  let sweepAt = nowMs;

  const sweep = (now: number) => {
    // Forget ended windows now and then, so one-off client addresses do not pile up. A dirty one
    // is dropped too: the store drops ended windows on save, so there is nothing left to write.
    if (now - sweepAt < SWEEP_EVERY_MS) return;
    sweepAt = now;
    for (const [bucket, w] of windows)
      if (w.resetAt <= now) {
        windows.delete(bucket);
        dirty.delete(bucket);
      }
  };

  const open = (bucket: string, windowMs: number, now: number): RateWindow => {
    windows.delete(bucket);
    while (windows.size >= maxBuckets) {
      const oldest = windows.keys().next().value as string;
      windows.delete(oldest);
      dirty.delete(oldest);
    }
    const w = { bucket, count: 0, resetAt: now + windowMs };
    windows.set(bucket, w);
    return w;
  };

  // Every window is in memory: each request is decided at once, and `consume` only wraps it.
  const consumeNow = (bucket: string, limit: number, windowMs: number, now: number): RateDecision => {
    sweep(now);
    let w = windows.get(bucket);
    if (!w || w.resetAt <= now) w = open(bucket, windowMs, now);
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetAt: w.resetAt };
    w.count++;
    dirty.add(bucket);
    return { allowed: true, limit, remaining: limit - w.count, resetAt: w.resetAt };
  };

  return {
    async consume(bucket, limit, windowMs, now): Promise<RateDecision> {
      return consumeNow(bucket, limit, windowMs, now);
    },
    consumeNow,
    async flush() {
      if (!store || dirty.size === 0) return;
      const changed: RateWindow[] = [];
      for (const bucket of dirty) {
        const w = windows.get(bucket);
        if (w) changed.push({ ...w });
      }
      dirty.clear();
      try {
        await store.save(changed, clock.now().getTime());
      } catch (e) {
        // Written next time unless a newer window replaced them meanwhile.
        for (const w of changed) if (windows.get(w.bucket)?.resetAt === w.resetAt) dirty.add(w.bucket);
        throw e;
      }
    },
    size: () => windows.size,
  };
}

import type { Clock, RateDecision, RateLimiter, RateWindow, RateWindowStore } from "../core/ports.ts";

/**
 * Fixed-window limiter for a single server instance: windows live in memory, so a request costs
 * no database write; `flush()` writes changed windows to the store (periodically and at shutdown)
 * and `createMemoryRateLimiter` reloads them, so a restart does not hand out a fresh hour.
 */
export async function createMemoryRateLimiter(
  store: RateWindowStore | null,
  clock: Clock,
): Promise<RateLimiter & { size(): number }> {
  const nowMs = clock.now().getTime();
  const windows = new Map<string, RateWindow>();
  const dirty = new Set<string>();
  if (store) for (const w of await store.load(nowMs)) windows.set(w.bucket, w);
  let sweepAt = nowMs;

  const sweep = (now: number) => {
    // Forget ended windows now and then, so one-off client addresses do not pile up.
    if (now - sweepAt < 60_000) return;
    sweepAt = now;
    for (const [bucket, w] of windows) if (w.resetAt <= now && !dirty.has(bucket)) windows.delete(bucket);
  };

  return {
    async consume(bucket, limit, windowMs, now): Promise<RateDecision> {
      sweep(now);
      let w = windows.get(bucket);
      if (!w || w.resetAt <= now) {
        w = { bucket, count: 0, resetAt: now + windowMs };
        windows.set(bucket, w);
      }
      if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetAt: w.resetAt };
      w.count++;
      dirty.add(bucket);
      return { allowed: true, limit, remaining: limit - w.count, resetAt: w.resetAt };
    },
    async flush() {
      if (!store || dirty.size === 0) return;
      const changed: RateWindow[] = [];
      for (const bucket of dirty) {
        const w = windows.get(bucket);
        if (w) changed.push({ ...w });
      }
      dirty.clear();
      await store.save(changed, clock.now().getTime());
    },
    size: () => windows.size,
  };
}

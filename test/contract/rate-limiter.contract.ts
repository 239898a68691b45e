import type { RateDecision, RateLimiter } from "../../core/ports.ts";
import { expect } from "./expect.ts";
import type { TestFunction } from "./harness.ts";

/** A fresh limiter for one test (no bucket counted yet), and how to release it afterwards. */
export interface RateLimiterHarness {
  limiter: RateLimiter;
  /**
   * Optional capability: a second limiter over the same backing store, as after a restart or on
   * another instance. Adapters that keep nothing across instances leave it out; the test that
   * needs it then has nothing to check and passes.
   */
  reopen?(): Promise<RateLimiter>;
  teardown(): Promise<void>;
}

export type RateLimiterSetup = () => Promise<RateLimiterHarness>;

const HOUR = 3_600_000;
/**
 * Every request of the suite is made at this time or shortly after (2026-01-01T00:00:00Z). A
 * limiter that also reads a clock of its own (to drop ended windows when it loads them) must read
 * this time: `createFixedClock(new Date(RATE_LIMITER_CONTRACT_START_MS))`.
 */
export const RATE_LIMITER_CONTRACT_START_MS = 1_767_225_600_000;
const T0 = RATE_LIMITER_CONTRACT_START_MS;

/**
 * The RateLimiter port's contract (core/ports.ts): a fixed window of `windowMs` starting at a
 * bucket's first request, one atomic `consume` per request, refusals not counted. Each test gets a
 * limiter from `setup` and releases it whether it passed or not; nothing is shared between tests.
 *
 * ```ts
 * import { test } from "bun:test";
 * runRateLimiterContracts("my limiter", async () => {
 *   const limiter = createMyLimiter(await openFreshClient());
 *   return { limiter, teardown: async () => {} };
 * }, test);
 * ```
 */
export function runRateLimiterContracts(
  adapterName: string,
  setup: RateLimiterSetup,
  run: TestFunction,
): void {
  const test = (name: string, fn: (h: RateLimiterHarness) => Promise<void>) =>
    run(`${adapterName} › RateLimiter › ${name}`, async () => {
      const harness = await setup();
      try {
        await fn(harness);
      } finally {
        await harness.teardown();
      }
    });

  test("the first request opens a window that ends windowMs later", async ({ limiter }) => {
    expect(await limiter.consume("k", 3, HOUR, T0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetAt: T0 + HOUR,
    });
  });

  test("requests count down to the limit, then are refused without being counted", async ({ limiter }) => {
    expect(await limiter.consume("k", 2, HOUR, T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume("k", 2, HOUR, T0 + 10)).toMatchObject({ allowed: true, remaining: 0 });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.consume("k", 2, HOUR, T0 + 20 + i)).toEqual({
        allowed: false,
        limit: 2,
        remaining: 0,
        resetAt: T0 + HOUR,
      });
    }
    // Raising the limit counts from the two allowed requests: the refusals left no trace.
    expect(await limiter.consume("k", 3, HOUR, T0 + 30)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 0,
      resetAt: T0 + HOUR,
    });
  });

  test("buckets are independent", async ({ limiter }) => {
    expect(await limiter.consume("key:a", 1, HOUR, T0)).toMatchObject({ allowed: true });
    expect(await limiter.consume("key:a", 1, HOUR, T0 + 1)).toMatchObject({ allowed: false });
    expect(await limiter.consume("key:b", 1, HOUR, T0 + 2)).toEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: T0 + 2 + HOUR,
    });
  });

  test("a window ends at resetAt: the next request opens a new one there", async ({ limiter }) => {
    await limiter.consume("k", 1, HOUR, T0);
    expect(await limiter.consume("k", 1, HOUR, T0 + HOUR - 1)).toMatchObject({ allowed: false });
    expect(await limiter.consume("k", 1, HOUR, T0 + HOUR)).toEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: T0 + 2 * HOUR,
    });
  });

  test("a window starts at the bucket's first request, not at a clock boundary", async ({ limiter }) => {
    const late = T0 + 1234;
    expect(await limiter.consume("k", 5, 60_000, late)).toMatchObject({ resetAt: late + 60_000 });
    expect(await limiter.consume("k", 5, 60_000, late + 59_999)).toMatchObject({
      resetAt: late + 60_000,
      remaining: 3,
    });
  });

  test("2L racing requests on one bucket: exactly L are allowed, each remaining once", async ({
    limiter,
  }) => {
    const limit = 25;
    const decisions = await Promise.all(
      Array.from({ length: 2 * limit }, () => limiter.consume("race", limit, HOUR, T0)),
    );
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed.length).toBe(limit);
    expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: limit }, (_, i) => i),
    );
    expect(decisions.every((d) => d.resetAt === T0 + HOUR)).toBe(true);
  });

  test("a steady stream past the limit: exactly L allowed, remaining counting down one by one", async ({
    limiter,
  }) => {
    // Spaced a millisecond apart, as a busy key's requests are: an adapter that takes quota in
    // blocks (Postgres) takes larger ones as the stream goes on, and must still count exactly.
    const limit = 300;
    const decisions: RateDecision[] = [];
    for (let i = 0; i < limit + 20; i++) decisions.push(await limiter.consume("busy", limit, HOUR, T0 + i));
    expect(decisions.slice(0, limit).map((d) => d.remaining)).toEqual(
      Array.from({ length: limit }, (_, i) => limit - 1 - i),
    );
    expect(decisions.slice(limit).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    expect(decisions.every((d) => d.resetAt === T0 + HOUR)).toBe(true);
  });

  test("consumeNow and consume mixed: exactly L allowed, remaining counting down one by one", async ({
    limiter,
  }) => {
    // consumeNow is optional and may decline (undefined, counting nothing): then consume decides.
    const limit = 120;
    const decisions: RateDecision[] = [];
    for (let i = 0; i < limit + 10; i++) {
      const now = i % 3 === 0 ? undefined : limiter.consumeNow?.("mixed", limit, HOUR, T0 + i);
      decisions.push(now ?? (await limiter.consume("mixed", limit, HOUR, T0 + i)));
    }
    expect(decisions.slice(0, limit).map((d) => d.remaining)).toEqual(
      Array.from({ length: limit }, (_, i) => limit - 1 - i),
    );
    expect(decisions.slice(limit).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    expect(decisions.every((d) => d.resetAt === T0 + HOUR)).toBe(true);
  });

  test("after flush, a reopened limiter allows exactly what the window has left", async (h) => {
    if (!h.reopen) return;
    const limit = 200;
    for (let i = 0; i < 60; i++)
      expect(await h.limiter.consume("k", limit, HOUR, T0 + i)).toMatchObject({ allowed: true });
    // Whatever the first limiter held back for itself is given up at flush.
    await h.limiter.flush();
    const again = await h.reopen();
    let allowed = 0;
    for (let i = 0; i < limit; i++)
      if ((await again.consume("k", limit, HOUR, T0 + 100 + i)).allowed) allowed++;
    expect(allowed).toBe(limit - 60);
    await again.flush();
  });

  test("flush resolves and changes no decision", async ({ limiter }) => {
    await limiter.consume("k", 3, HOUR, T0);
    await limiter.flush();
    await limiter.flush();
    expect(await limiter.consume("k", 3, HOUR, T0 + 1)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 1,
      resetAt: T0 + HOUR,
    });
  });

  test("a window counted before flush continues in a reopened limiter", async (h) => {
    if (!h.reopen) return;
    await h.limiter.consume("k", 2, HOUR, T0);
    await h.limiter.consume("k", 2, HOUR, T0 + 1);
    await h.limiter.flush();
    const again = await h.reopen();
    expect(await again.consume("k", 2, HOUR, T0 + 2)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0 + HOUR,
    });
    await again.flush();
  });
}

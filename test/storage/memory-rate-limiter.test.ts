import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createMemoryRateLimiter } from "../../adapters/memory-rate-limiter.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import type { RateWindowStore } from "../../core/ports.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import {
  RATE_LIMITER_CONTRACT_START_MS,
  runRateLimiterContracts,
} from "../contract/rate-limiter.contract.ts";

const HOUR = 3_600_000;
const T0 = RATE_LIMITER_CONTRACT_START_MS;

// The limiter loads the windows that end after its clock's now, so the clock reads the suite's start.
const over = (store: RateWindowStore | null) => {
  const clock = createFixedClock(T0);
  return {
    limiter: createMemoryRateLimiter(store, clock),
    reopen: store ? () => createMemoryRateLimiter(store, clock) : undefined,
  };
};

runRateLimiterContracts(
  "memory limiter without a store",
  async () => ({ limiter: await over(null).limiter, teardown: async () => {} }),
  test,
);

runRateLimiterContracts(
  "memory limiter over memory storage",
  async () => {
    const storage = createMemoryStorage();
    const { limiter, reopen } = over(storage.rateWindows);
    return { limiter: await limiter, reopen, teardown: () => storage.close() };
  },
  test,
);

runRateLimiterContracts(
  "memory limiter over SQLite storage",
  async () => {
    const db = new Database(":memory:");
    const storage = createSqliteStorage(db);
    const { limiter, reopen } = over(storage.rateWindows);
    return {
      limiter: await limiter,
      reopen,
      async teardown() {
        await storage.close();
        db.close();
      },
    };
  },
  test,
);

test("the map of windows never holds more than maxBuckets; the oldest window goes first", async () => {
  const limiter = await createMemoryRateLimiter(null, createFixedClock(T0), { maxBuckets: 3 });
  for (let i = 0; i < 1000; i++) await limiter.consume(`addr:10.0.${i >> 8}.${i & 255}`, 5, HOUR, T0 + i);
  expect(limiter.size()).toBe(3);
  // The three newest are kept, with their counts.
  expect(await limiter.consume("addr:10.0.3.231", 5, HOUR, T0 + 1000)).toMatchObject({ remaining: 3 });
  // A new bucket pushes out the window that started first (…229), not a newer one.
  await limiter.consume("new", 5, HOUR, T0 + 1001);
  expect(await limiter.consume("addr:10.0.3.230", 5, HOUR, T0 + 1002)).toMatchObject({ remaining: 3 });
  expect(await limiter.consume("addr:10.0.3.229", 5, HOUR, T0 + 1003)).toMatchObject({ remaining: 4 });
  expect(limiter.size()).toBe(3);
});

test("ended windows are dropped from memory and from the store", async () => {
  const storage = createMemoryStorage();
  const clock = createFixedClock(T0);
  const limiter = await createMemoryRateLimiter(storage.rateWindows, clock);
  for (let i = 0; i < 50; i++) await limiter.consume(`addr:${i}`, 5, HOUR, T0);
  await limiter.flush();
  expect(limiter.size()).toBe(50);
  clock.set(T0 + 2 * HOUR);
  await limiter.consume("addr:late", 5, HOUR, T0 + 2 * HOUR);
  expect(limiter.size()).toBe(1);
  await limiter.flush();
  expect((await storage.rateWindows.load(0)).map((w) => w.bucket)).toEqual(["addr:late"]);
});

test("a failed flush keeps the windows to write next time", async () => {
  const saved: string[][] = [];
  let failing = true;
  const store: RateWindowStore = {
    load: async () => [],
    async save(windows) {
      if (failing) throw new Error("store down");
      saved.push(windows.map((w) => w.bucket));
    },
  };
  const limiter = await createMemoryRateLimiter(store, createFixedClock(T0));
  await limiter.consume("a", 5, HOUR, T0);
  await expect(limiter.flush()).rejects.toThrow("store down");
  failing = false;
  await limiter.flush();
  expect(saved).toEqual([["a"]]);
});

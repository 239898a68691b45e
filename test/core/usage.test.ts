/**
 * usageCount never goes backwards (issue 10): a count shown adds what this process still holds to
 * what the store holds, and a flush moves counts from one to the other. A flush that commits between
 * reading a key and showing it must neither drop its batch nor count it twice.
 */
import { expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import type { UsageIncrement } from "../../core/ports.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

/** Memory storage whose addUsage waits for `commit()`: the test decides when a flush lands. */
function gatedStorage() {
  const storage = createMemoryStorage();
  const waiting: (() => void)[] = [];
  const addUsage = async (increments: UsageIncrement[]) => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    await storage.keys.addUsage(increments);
  };
  return {
    storage: { ...storage, keys: { ...storage.keys, addUsage } },
    waiting: () => waiting.length,
    commit: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

async function world() {
  const gated = gatedStorage();
  const parlance = createParlance({ storage: gated.storage, clock: createFixedClock() });
  const org = await parlance.admin.createOrg("Acme");
  const { key } = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["admin"] });
  const authorization = `Bearer ${key}`;
  const admitted = async () => {
    const a = await parlance.admit({ authorization, address: () => "203.0.113.1" });
    if (!a.principal) throw new Error("not admitted");
    return a.principal;
  };
  const shown = async () => (await parlance.keyInfo(await admitted())).usageCount;
  const listed = async () => {
    const page = await parlance.listKeys(await admitted());
    return page.data[0]?.usageCount;
  };
  return { ...gated, parlance, admitted, shown, listed };
}

test("a key read before a flush committed is shown with the flushed batch", async () => {
  const w = await world();
  expect(await w.shown()).toBe(1);
  expect(await w.shown()).toBe(2);
  // This request's key was read (count 0 in the store) before the flush began.
  const principal = await w.admitted();
  const flushed = w.parlance.flush();
  expect(w.waiting()).toBe(1);
  w.commit();
  await flushed;
  // Stored 3, nothing pending: shown 3, not 0 + nothing.
  expect((await w.parlance.keyInfo(principal)).usageCount).toBe(3);
  expect(await w.shown()).toBe(4);
});

test("a count asked for while a flush is in flight waits for it, then counts the batch once", async () => {
  const w = await world();
  for (let i = 1; i <= 3; i++) expect(await w.shown()).toBe(i);
  const principal = await w.admitted();
  const flushed = w.parlance.flush();
  const during = w.parlance.keyInfo(principal);
  const listing = w.listed();
  await Bun.sleep(5);
  expect(w.waiting()).toBe(1);
  w.commit();
  await flushed;
  // Both answer after the flush, when the listing request (the fifth) was admitted too: neither
  // shows 1 (the four flushed lost) nor 9 (counted twice).
  expect((await during).usageCount).toBe(5);
  expect(await listing).toBe(5);
  expect(await w.shown()).toBe(6);
});

test("a sequence of requests interleaved with flushes never shows a smaller count", async () => {
  const w = await world();
  let last = 0;
  for (let round = 0; round < 20; round++) {
    const principal = await w.admitted();
    const flushed = w.parlance.flush();
    const mid = w.parlance.keyInfo(principal);
    if (round % 2 === 0) w.commit();
    else setTimeout(w.commit, 1);
    await flushed;
    const counts = [(await mid).usageCount, await w.shown(), (await w.listed()) ?? 0];
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(last);
      last = c;
    }
  }
  // Every admitted request counted exactly once: 3 per round.
  expect(last).toBe(60);
});

test("a failed flush puts its counts back: nothing is lost or shown twice", async () => {
  const storage = createMemoryStorage();
  let fail = true;
  const keys = {
    ...storage.keys,
    async addUsage(increments: UsageIncrement[]) {
      if (fail) throw new Error("store down");
      await storage.keys.addUsage(increments);
    },
  };
  const parlance = createParlance({ storage: { ...storage, keys }, clock: createFixedClock() });
  const org = await parlance.admin.createOrg("Acme");
  const { key } = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["admin"] });
  const shown = async () => {
    const a = await parlance.admit({ authorization: `Bearer ${key}`, address: () => "x" });
    return (await parlance.keyInfo(a.principal as NonNullable<typeof a.principal>)).usageCount;
  };
  expect(await shown()).toBe(1);
  await expect(parlance.flush()).rejects.toThrow("store down");
  expect(await shown()).toBe(2);
  fail = false;
  await parlance.flush();
  expect(await shown()).toBe(3);
  expect((await storage.keys.listByOrg(org.id, 10, 0)).items[0]?.usageCount).toBe(2);
});

import type { RateWindow } from "../../core/ports.ts";
import { expect } from "./expect.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

const byBucket = (windows: RateWindow[]) => [...windows].sort((a, b) => (a.bucket < b.bucket ? -1 : 1));

const NOW = 1_767_225_600_000;

export function rateWindowContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › RateWindowStore`);

  test("load is empty before anything is saved", async (storage) => {
    expect(await storage.rateWindows.load(NOW)).toEqual([]);
  });

  test("save then load returns the windows that end after now", async (storage) => {
    const windows = [
      { bucket: "key:a", count: 3, resetAt: NOW + 60_000 },
      { bucket: "ip:203.0.113.9", count: 1, resetAt: NOW + 1 },
      { bucket: "key:b", count: 9, resetAt: NOW + 30_000 },
    ];
    await storage.rateWindows.save(windows, NOW);
    expect(byBucket(await storage.rateWindows.load(NOW))).toEqual(byBucket(windows));
    expect(await storage.rateWindows.load(NOW + 40_000)).toEqual([windows[0] as RateWindow]);
  });

  test("save replaces the state of the buckets it names and leaves the others", async (storage) => {
    await storage.rateWindows.save(
      [
        { bucket: "a", count: 1, resetAt: NOW + 1000 },
        { bucket: "b", count: 1, resetAt: NOW + 1000 },
      ],
      NOW,
    );
    await storage.rateWindows.save([{ bucket: "a", count: 7, resetAt: NOW + 5000 }], NOW + 10);
    expect(byBucket(await storage.rateWindows.load(NOW + 10))).toEqual([
      { bucket: "a", count: 7, resetAt: NOW + 5000 },
      { bucket: "b", count: 1, resetAt: NOW + 1000 },
    ]);
  });

  test("save drops windows that ended before now, saved earlier or not", async (storage) => {
    await storage.rateWindows.save(
      [
        { bucket: "old", count: 2, resetAt: NOW + 100 },
        { bucket: "live", count: 2, resetAt: NOW + 5000 },
      ],
      NOW,
    );
    await storage.rateWindows.save([{ bucket: "stale", count: 1, resetAt: NOW + 150 }], NOW + 200);
    // Loading at an earlier instant shows what is still stored.
    expect(await storage.rateWindows.load(NOW)).toEqual([{ bucket: "live", count: 2, resetAt: NOW + 5000 }]);
  });
}

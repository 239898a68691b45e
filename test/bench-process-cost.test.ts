import { expect, test } from "bun:test";
import { costOf, processCost } from "../bench/process-cost.ts";

test.skipIf(process.platform !== "linux")(
  "a pull's cost is the main thread's CPU and the pages faulted during it",
  async () => {
    const { result, cost } = await costOf(process.pid, async () => {
      const until = performance.now() + 40;
      let spins = 0;
      while (performance.now() < until) spins++;
      // 16 MiB written: thousands of fresh pages.
      new Uint8Array(16 * 1024 * 1024).fill(1);
      return spins;
    });
    expect(result).toBeGreaterThan(0);
    expect(cost?.mainCpuMs).toBeGreaterThanOrEqual(30);
    expect(cost?.faults).toBeGreaterThan(1000);
  },
);

test("a process /proc cannot tell about has no cost, rather than a wrong one", async () => {
  expect(processCost(2 ** 22 + 7)).toBeNull();
  expect((await costOf(2 ** 22 + 7, async () => 1)).cost).toBeNull();
});

import { expect, test } from "bun:test";
import { costOf, processCost } from "../bench/process-cost.ts";

/**
 * A child that, for each line on stdin, writes 64 MiB of fresh memory and spins until its own CPU
 * has moved 40 ms (the machine may be busy), then answers: what the bench does to a server.
 */
const CHILD = `
const lines = console[Symbol.asyncIterator]();
console.log("ready");
for await (const _ of lines) {
  new Uint8Array(64 * 1024 * 1024).fill(1);
  const start = process.cpuUsage();
  while (process.cpuUsage(start).user + process.cpuUsage(start).system < 40_000) {}
  console.log("done");
}`;

test.skipIf(process.platform !== "linux")(
  "a request's cost is the CPU of the child's main thread and the pages it faulted meanwhile",
  async () => {
    const child = Bun.spawn(["bun", "-e", CHILD], { stdin: "pipe", stdout: "pipe" });
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const nextLine = async () => (await lines.read()).value?.trim();
    try {
      expect(await nextLine()).toBe("ready");
      const { result, cost } = await costOf(child.pid, async () => {
        child.stdin.write("go\n");
        child.stdin.flush();
        return nextLine();
      });
      expect(result).toBe("done");
      expect(cost?.mainCpuMs).toBeGreaterThanOrEqual(30);
      // 64 MiB is 16,384 pages of 4 KiB.
      expect(cost?.faults).toBeGreaterThan(8000);
      // Waiting costs no CPU: the measure is not the time.
      const idle = await costOf(child.pid, () => Bun.sleep(60));
      expect(idle.cost?.mainCpuMs).toBeLessThan(20);
    } finally {
      child.kill();
    }
  },
);

test("a process /proc cannot tell about has no cost, rather than a wrong one", async () => {
  expect(processCost(2 ** 22 + 7)).toBeNull();
  expect((await costOf(2 ** 22 + 7, async () => 1)).cost).toBeNull();
});

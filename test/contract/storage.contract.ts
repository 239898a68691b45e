import { expect } from "./expect.ts";
import { type StorageSetup, sleep, storageTests, type TestFunction } from "./harness.ts";

export function storageContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › Storage`);

  test("ping resolves", async (storage) => {
    await storage.ping();
  });

  test("shared is a boolean", async (storage) => {
    expect(typeof storage.shared).toBe("boolean");
  });

  test("exclusive runs callers of one name one at a time, and returns or throws what fn does", async (storage) => {
    const events: string[] = [];
    const work = (tag: string) => async () => {
      events.push(`start ${tag}`);
      await sleep(20);
      events.push(`end ${tag}`);
      return tag;
    };
    const results = await Promise.all([
      storage.exclusive("contract", work("a")),
      storage.exclusive("contract", work("b")),
    ]);
    expect(results.toSorted()).toEqual(["a", "b"]);
    expect(events[1]).toStartWith("end");
    expect(events[3]).toStartWith("end");
    await expect(
      storage.exclusive("contract", async () => {
        throw new Error("inside");
      }),
    ).rejects.toThrow("inside");
    expect(await storage.exclusive("contract", async () => "after a failure")).toBe("after a failure");
  });
}

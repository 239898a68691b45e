import { describe, expect, test } from "bun:test";
import { freshStorage, type StorageSetup } from "./harness.ts";

export function storageContract(setup: StorageSetup): void {
  describe("Storage", () => {
    const storage = freshStorage(setup);

    test("ping resolves", async () => {
      await storage().ping();
    });

    test("shared is a boolean", () => {
      expect(typeof storage().shared).toBe("boolean");
    });

    test("exclusive runs callers of one name one at a time, and returns or throws what fn does", async () => {
      const events: string[] = [];
      const work = (tag: string) => async () => {
        events.push(`start ${tag}`);
        await Bun.sleep(20);
        events.push(`end ${tag}`);
        return tag;
      };
      const results = await Promise.all([
        storage().exclusive("contract", work("a")),
        storage().exclusive("contract", work("b")),
      ]);
      expect(results.toSorted()).toEqual(["a", "b"]);
      expect(events[1]).toStartWith("end");
      expect(events[3]).toStartWith("end");
      await expect(
        storage().exclusive("contract", async () => {
          throw new Error("inside");
        }),
      ).rejects.toThrow("inside");
      expect(await storage().exclusive("contract", async () => "after a failure")).toBe("after a failure");
    });
  });
}

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
  });
}

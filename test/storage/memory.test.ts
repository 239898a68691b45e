import { expect, test } from "bun:test";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { runStorageContracts } from "../contract/index.ts";

runStorageContracts(
  "memory storage",
  async () => {
    const storage = createMemoryStorage();
    return { storage, teardown: () => storage.close() };
  },
  test,
);

test("memory storage is not shared between instances", () => {
  expect(createMemoryStorage().shared).toBe(false);
});

/**
 * Proves the toy adapter with the contract suite Parlance publishes: one call, any test runner.
 *
 *   node --test examples/toy-adapter.test.ts   bun test ./examples/toy-adapter.test.ts
 *   deno test -A examples/toy-adapter.test.ts
 */
import { test } from "node:test";
import { runStorageContracts } from "parlance-tms/testing";
import { createCountingStorage } from "./toy-adapter.ts";

runStorageContracts(
  "counting storage",
  async () => {
    const storage = createCountingStorage();
    return { storage, teardown: () => storage.close() };
  },
  test,
);

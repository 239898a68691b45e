import { environmentContract } from "./environments.contract.ts";
import type { StorageSetup, TestFunction } from "./harness.ts";
import { jobContract } from "./jobs.contract.ts";
import { keyContract } from "./keys.contract.ts";
import { listingContract } from "./listing.contract.ts";
import { membershipContract } from "./memberships.contract.ts";
import { oneTimeTokenContract } from "./one-time-tokens.contract.ts";
import { organizationContract } from "./organizations.contract.ts";
import { projectContract } from "./projects.contract.ts";
import { rateWindowContract } from "./rate-windows.contract.ts";
import { recordContract } from "./records.contract.ts";
import { sessionContract } from "./sessions.contract.ts";
import { storageContract } from "./storage.contract.ts";
import { tokenContract } from "./tokens.contract.ts";
import { translationContract } from "./translations.contract.ts";
import { userContract } from "./users.contract.ts";

export { deepEqual, expect } from "./expect.ts";
export type { StorageHarness, StorageSetup, TestFunction } from "./harness.ts";
export {
  RATE_LIMITER_CONTRACT_START_MS,
  type RateLimiterHarness,
  type RateLimiterSetup,
  runRateLimiterContracts,
} from "./rate-limiter.contract.ts";

/**
 * Every storage port's contract against one adapter: what "works" means for a `Storage`.
 * `setup` runs before each test and must return an empty storage of its own; its `teardown` runs
 * after the test (closing the storage and its client). `test` is the runner's test function:
 * `test` from bun:test, node:test or vitest, or `Deno.test`.
 *
 * ```ts
 * import { test } from "bun:test";
 * runStorageContracts("my store", async () => {
 *   const storage = createMyStorage(await openFreshClient());
 *   return { storage, teardown: () => storage.close() };
 * }, test);
 * ```
 */
export function runStorageContracts(adapterName: string, setup: StorageSetup, test: TestFunction): void {
  for (const contract of [
    storageContract,
    organizationContract,
    projectContract,
    keyContract,
    tokenContract,
    translationContract,
    recordContract,
    jobContract,
    environmentContract,
    rateWindowContract,
    listingContract,
    userContract,
    membershipContract,
    sessionContract,
    oneTimeTokenContract,
  ]) {
    contract(test, setup, adapterName);
  }
}

import { describe } from "bun:test";
import { environmentContract } from "./environments.contract.ts";
import type { StorageHarness } from "./harness.ts";
import { jobContract } from "./jobs.contract.ts";
import { keyContract } from "./keys.contract.ts";
import { listingContract } from "./listing.contract.ts";
import { organizationContract } from "./organizations.contract.ts";
import { projectContract } from "./projects.contract.ts";
import { rateWindowContract } from "./rate-windows.contract.ts";
import { storageContract } from "./storage.contract.ts";
import { tokenContract } from "./tokens.contract.ts";
import { translationContract } from "./translations.contract.ts";

export type { StorageHarness } from "./harness.ts";

/**
 * Every port's contract against one adapter. `setup` runs before each test and must return an
 * empty storage of its own; `teardown` runs after it (closing the storage and its client).
 */
export function runStorageContracts(adapterName: string, setup: () => Promise<StorageHarness>): void {
  describe(adapterName, () => {
    storageContract(setup);
    organizationContract(setup);
    projectContract(setup);
    keyContract(setup);
    tokenContract(setup);
    translationContract(setup);
    jobContract(setup);
    environmentContract(setup);
    rateWindowContract(setup);
    listingContract(setup);
  });
}

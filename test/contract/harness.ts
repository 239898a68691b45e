import { afterEach, beforeEach } from "bun:test";
import type { Storage } from "../../core/ports.ts";

export interface StorageHarness {
  storage: Storage;
  teardown(): Promise<void>;
}

export type StorageSetup = () => Promise<StorageHarness>;

/** A fresh storage for every test of the enclosing describe; read it inside the test. */
export function freshStorage(setup: StorageSetup): () => Storage {
  let harness: StorageHarness | null = null;
  beforeEach(async () => {
    harness = await setup();
  });
  afterEach(async () => {
    await harness?.teardown();
    harness = null;
  });
  return () => {
    if (!harness) throw new Error("No storage: call the getter inside a test");
    return harness.storage;
  };
}

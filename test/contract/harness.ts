import type { Storage } from "../../core/ports.ts";

/** A fresh, empty storage for one test, and how to release it afterwards. */
export interface StorageHarness {
  storage: Storage;
  teardown(): Promise<void>;
}

export type StorageSetup = () => Promise<StorageHarness>;

/**
 * The one thing the suites need from a test runner: register a named async test. The `test` of
 * `bun:test`, `node:test` and vitest, and `Deno.test`, all fit, so the suites bind to no runner.
 */
export type TestFunction = (name: string, fn: () => Promise<void>) => unknown;

/** Registers a test of one port; the test receives a storage no other test sees. */
export type StorageTest = (name: string, fn: (storage: Storage) => Promise<void>) => void;

/**
 * Tests named `<adapter> › <port> › <behaviour>`, each on a fresh storage from `setup` that is torn
 * down afterwards whether the test passed or not. Nothing is shared between tests, so any runner
 * may order or parallelize them.
 */
export function storageTests(run: TestFunction, setup: StorageSetup, prefix: string): StorageTest {
  return (name, fn) => {
    run(`${prefix} › ${name}`, async () => {
      const harness = await setup();
      try {
        await fn(harness.storage);
      } finally {
        await harness.teardown();
      }
    });
  };
}

/** Resolves after `ms` milliseconds, without a runtime's own sleep. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

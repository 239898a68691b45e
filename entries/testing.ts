/**
 * `parlance-tms/testing`: what proves an adapter and speeds up a host's own tests. The storage
 * and rate-limiter contract suites take the runner's `test` function (bun:test, node:test, vitest, Deno.test), so
 * this entry imports no test runner and loads on every runtime.
 */
export { createFixedClock } from "../adapters/system-clock.ts";
export {
  deepEqual,
  expect,
  RATE_LIMITER_CONTRACT_START_MS,
  type RateLimiterHarness,
  type RateLimiterSetup,
  runRateLimiterContracts,
  runStorageContracts,
  type StorageHarness,
  type StorageSetup,
  type TestFunction,
} from "../test/contract/index.ts";

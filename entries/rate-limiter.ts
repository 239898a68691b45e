/**
 * `parlance-tms/rate-limiter`: counted in memory for one instance (windows saved to the store), or
 * in Postgres for instances that share a database (one atomic statement per request).
 */
export { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
export { createPostgresRateLimiter } from "../adapters/postgres-rate-limiter.ts";

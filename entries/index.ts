/**
 * `parlance-tms`: Parlance with sensible defaults. `createParlance({ storage })` and the types,
 * errors and events a host application meets. Storage adapters and the rest are subpaths.
 */
export { type CreateParlanceOptions, createParlance } from "../adapters/create-parlance.ts";
export * from "./public-types.ts";

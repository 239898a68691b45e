/**
 * `parlance-tms`: Parlance with sensible defaults. `createParlance({ storage })` and the types,
 * errors and events a host application meets. Storage adapters and the rest are subpaths.
 */
export { type CreateParlanceOptions, createParlance } from "../embed/create-parlance.ts";
export * from "../embed/public-types.ts";

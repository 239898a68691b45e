/**
 * `parlance-tms/core`: the composition root with every port explicit, for hosts that wire their
 * own queue, clock, rate limiter and hasher (the package root fills them in). Runtime-agnostic.
 */
export { type CoreDeps, createParlance as createCore, DEFAULT_SETTINGS, type Deps } from "../core/index.ts";
export * from "./public-types.ts";

/**
 * `parlance-tms/server`: the HTTP API (`/api/v1`, `/healthz`, the OpenAPI document) three ways: an
 * Elysia plugin mountable under any prefix, a web-standard fetch handler for any runtime or
 * framework, and the standalone Elysia app `parlance serve` listens with.
 */
export { createServer, type ParlanceServer, type ServerOptions } from "../server/app.ts";
export { type ClientInfo, createFetchHandler, type FetchHandler } from "../server/fetch-handler.ts";
export { type PluginOptions, parlancePlugin } from "../server/plugin.ts";

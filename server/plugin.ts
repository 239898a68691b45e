import { Elysia } from "elysia";
import type { Parlance } from "../core/index.ts";
import type { ServerOptions } from "./app.ts";
import { normalizeBasePath } from "./base-path.ts";
import { API_PATHS, forwarder } from "./fetch-handler.ts";

export interface PluginOptions extends ServerOptions {
  /** Where the API lives in the host app, e.g. "/i18n" → /i18n/api/v1/push. Default: the root. */
  prefix?: string;
}

/**
 * Parlance's HTTP API as an Elysia plugin: `hostApp.use(parlancePlugin(parlance, { prefix: "/i18n" }))`.
 * The API runs as its own Elysia app behind a few forwarding routes (its health check and /api/v1),
 * so its hooks (authentication, rate limits, error objects) never touch the host's routes, and the
 * host's body parsing never touches its requests. The host's global hooks still run first.
 */
export function parlancePlugin(parlance: Parlance, options: PluginOptions = {}) {
  const prefix = normalizeBasePath(options.prefix ?? "");
  // Browsers see the API under the prefix: the docs page must load its files from there.
  const handle = forwarder(parlance, { ...options, basePath: options.basePath ?? prefix }, prefix);
  const plugin = new Elysia();
  // Bun's server tells the peer; a host on another adapter may have no requestIP (then: unknown).
  for (const path of API_PATHS) {
    plugin.all(
      `${prefix}${path}`,
      ({ request, server }) => handle(request, { clientAddress: server?.requestIP?.(request)?.address }),
      { parse: "none", detail: { hide: true } },
    );
  }
  return plugin;
}

import type { Parlance } from "../core/index.ts";
import { createServer, type ServerOptions } from "./app.ts";
import { proxyHops } from "./client-address.ts";
import { rewrapped, routable } from "./request-target.ts";

/** What the serving runtime knows about a request that the Request itself does not carry. */
export interface ClientInfo {
  /** The socket peer's address: the key of the anonymous rate limiter. */
  clientAddress?: string;
}

/** A web-standard handler: any runtime or framework that speaks Request and Response can serve it. */
export type FetchHandler = (request: Request, info?: ClientInfo) => Promise<Response>;

/** The paths the API answers, relative to where it is mounted. */
export const API_PATHS = ["/healthz", "/api/v1", "/api/v1/*", "/api/workspace", "/api/workspace/*"] as const;

/**
 * The HTTP API as `fetch(Request, { clientAddress }) → Response`, for `Bun.serve`, `Deno.serve`, Hono,
 * Node through `@hono/node-server`, or a test calling it directly. Without `trustProxy` the client's
 * address is the one the caller passes (a client cannot choose it with X-Forwarded-For); with it
 * (a number of proxy hops, `true` for one), the X-Forwarded-For entry that many hops from the right.
 */
export function createFetchHandler(parlance: Parlance, options: ServerOptions = {}): FetchHandler {
  return forwarder(parlance, options, "");
}

/**
 * The handler behind createFetchHandler and parlancePlugin: requests whose path starts with
 * `prefix` reach the API with the prefix removed, so its routes, hooks and rate limits see the
 * paths they were written for.
 */
export function forwarder(parlance: Parlance, options: ServerOptions, prefix: string): FetchHandler {
  const hops = proxyHops(options.trustProxy);
  const trustProxy = hops > 0;
  // The app always reads X-Forwarded-For: as the operator's proxies wrote it (their number of
  // hops), or holding only the real peer, set below (one hop).
  const app = createServer(parlance, { ...options, trustProxy: trustProxy ? hops : 1 });
  return (given, info) => {
    // First: a Host-less request's URL (its target alone) is no URL a new Request accepts.
    const request = routable(given);
    const address = trustProxy ? null : (info?.clientAddress ?? null);
    const spoofable = !trustProxy && request.headers.has("x-forwarded-for");
    if (prefix === "" && address === null && !spoofable) return app.handle(request);
    const headers = new Headers(request.headers);
    if (!trustProxy) headers.delete("x-forwarded-for");
    if (address !== null) headers.set("x-forwarded-for", address);
    const url = withoutPrefix(request.url, prefix);
    return app.handle(routable(rewrapped(request, url, { ...requestInit(request), headers })));
  };
}

function withoutPrefix(url: string, prefix: string): string {
  if (prefix === "") return url;
  const u = new URL(url);
  u.pathname = u.pathname.slice(prefix.length) || "/";
  return u.toString();
}

/**
 * A request's own init, body included (streamed, not buffered). Not its `signal`: nothing in the
 * app reads it (a client gone cancels the answer's body stream, which is passed on as it is), and
 * reading it makes Deno.serve warn about its legacy abort behaviour on every start.
 */
const requestInit = (request: Request): RequestInit & { duplex?: "half" } => ({
  method: request.method,
  body: request.body,
  redirect: request.redirect,
  // Node's fetch requires it for a streamed body; the others ignore it.
  duplex: "half",
});

/**
 * The request's target (path and query) as the client sent it, and a request Elysia's general
 * router reads right.
 *
 * That router (`app.handle`, and the listener's fallback for paths Bun's router does not match)
 * takes the path to start at the first "/" from index 11 of the URL: `http://` and a Host of four
 * characters or more. A shorter Host (`Host: app`, which nginx sends for `proxy_pass http://app;`)
 * or none (HTTP/1.0, whose URL Bun gives as its target alone) would be routed by a wrong path
 * (docs/decisions.md, "A short Host, or none, routed by the request's own path").
 */

/**
 * Where the request's target starts in `request.url`; -1 when it has none. Bun gives an HTTP/1.0
 * request without a Host header a URL of its target alone.
 */
export function targetStart(url: string): number {
  return url.startsWith("/") ? 0 : url.indexOf("/", url.indexOf("//") + 2);
}

/** The request's path, without a trailing slash: the router treats `/a/` as `/a`, and so do we. */
export function requestPath(url: string): string {
  const start = targetStart(url);
  const end = url.indexOf("?", start);
  const path = start < 0 ? "/" : end < 0 ? url.slice(start) : url.slice(start, end);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * The origin a stand-in request carries: long enough for the router's offset, and `.invalid`
 * (RFC 6761), so it can never be taken for a real one. Only the router reads it; what needs the
 * client's origin or address reads the original request (`originalOf`).
 */
const STAND_IN_ORIGIN = "http://parlance.invalid";

/** Each stand-in's original request, as the listener gave it. */
const originals = new WeakMap<Request, Request>();

/**
 * `request` itself when the router reads its path right, as it does for almost every request;
 * otherwise a stand-in with the same method, headers, body and target under `STAND_IN_ORIGIN`
 * (its dot segments resolved, as Bun resolves them in every URL that has a Host).
 */
export function routable(request: Request): Request {
  const url = request.url;
  const start = targetStart(url);
  if (start > 0 && url.indexOf("/", 11) === start) return request;
  return rewrapped(request, `${STAND_IN_ORIGIN}${start < 0 ? "/" : url.slice(start)}`, request);
}

/**
 * A new request made from `request` (a stand-in or not) that still knows the listener's original:
 * how any further request is made once `routable` has run, or the stand-in's origin would be read
 * as the client's.
 */
export function rewrapped(request: Request, url: string, init: RequestInit): Request {
  const next = new Request(url, init);
  originals.set(next, originalOf(request));
  return next;
}

/** The request the listener gave: the one its peer address and Host belong to. */
export const originalOf = (request: Request): Request => originals.get(request) ?? request;

/**
 * The origin (`scheme://host`) the client sent the request to, or null when it named none: no Host
 * (HTTP/1.0), or one that Bun passes on but no URL can hold (`x:99999`, `1.2.3.4.5`).
 */
export function requestOrigin(request: Request): string | null {
  const url = originalOf(request).url;
  if (targetStart(url) === 0) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

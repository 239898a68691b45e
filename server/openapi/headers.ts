/**
 * The response headers Parlance sends, as OpenAPI header objects (`components.headers`), and the
 * meaning of each status, in one place for every operation of the document.
 */

const integer = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });
const text = (description: string, example?: string) => ({
  description,
  schema: { type: "string", ...(example ? { examples: [example] } : {}) },
});

export const HEADERS = {
  "X-RateLimit-Limit": integer(
    "Requests allowed per hour: the key's rate limit, or without valid credentials the client address's",
  ),
  "X-RateLimit-Remaining": integer("Requests left in the current one-hour window"),
  "X-RateLimit-Reset": integer("Unix time in seconds at which the current window ends"),
  "Retry-After": integer("Seconds to wait before trying again"),
  "WWW-Authenticate": text("The authentication challenge (RFC 9110 §11.6.1)", 'Bearer realm="parlance"'),
  Location: text("Where the new resource is: poll this job", "/api/v1/jobs/0b6e…"),
  ETag: text("Fingerprint of the export; send it back in If-None-Match to get 304 when unchanged"),
  "Content-Disposition": text(
    "A download named after the project and language",
    'attachment; filename="my-app.fr.json"',
  ),
  Deprecation: text("RFC 9745: deprecated since 2026-01-01 (no removal date is set)", "@1767225600"),
  Link: text(
    "RFC 8288: the successor of this deprecated endpoint",
    '</api/v1/pull>; rel="successor-version"',
  ),
  "Cache-Control": text("The answer holds a secret: never store it", "no-store"),
  Pragma: text("HTTP/1.0 caches: never store the answer", "no-cache"),
  Allow: text("The methods this path takes", "GET"),
} as const;

export type HeaderName = keyof typeof HEADERS;

/** What each status means, for the response descriptions. */
export const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  304: "Not modified: If-None-Match named the current ETag",
  400: "Bad request: a parameter or the body is missing or invalid (the message names it)",
  401: "No valid credentials: the key or token is missing, malformed, unknown, inactive or expired",
  402: "Translation quota of the organization exceeded; nothing was written",
  403: "The key lacks the scope this operation needs",
  404: "Not found, or not in the key's organization",
  405: "This path does not take that method; Allow lists the ones it takes",
  408: "The request body did not arrive in time (60 seconds)",
  409: "Conflict: a key with that name already exists in the organization",
  413: "Payload too large",
  414: "The request URI (its query string) is too long",
  415: "Unsupported media type: send the body as the operation's media type",
  429: "Rate limit exceeded, or (push) the import queue is full: wait Retry-After seconds (until X-RateLimit-Reset when X-RateLimit-Remaining is 0)",
  431: "Request header fields too large",
  500: "Internal error: a bug in Parlance",
  503: "Temporarily unavailable (storage unreachable): retry after Retry-After",
};

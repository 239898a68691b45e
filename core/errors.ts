/**
 * The one error type of Parlance. Every failure the domain can name carries a code; the server maps
 * each code to an HTTP status in one table (server/http-errors.ts). Anything else is a bug (500).
 */
export type ErrorCode =
  | "invalid_input" // 400: a parameter or body the caller can fix
  | "unauthenticated" // 401: credentials missing, malformed, unknown, inactive or expired
  | "quota_exceeded" // 402: the organization's translation quota would be exceeded
  | "forbidden" // 403: the key lacks the scope
  | "not_found" // 404: absent, or outside the caller's organization
  | "method_not_allowed" // 405: the path exists with other methods
  | "conflict" // 409: a unique name is taken
  | "precondition_failed" // 412: the record changed since the version the caller read
  | "payload_too_large" // 413: over the push limits
  | "unsupported_media_type" // 415: a body of another media type than the operation takes
  | "request_timeout" // 408: the request body did not arrive in time
  | "uri_too_long" // 414: the request target (its query string) is too long
  | "headers_too_large" // 431: the request's header fields are too large
  | "rate_limited" // 429: the window's requests are spent
  | "unavailable" // 503: storage does not answer
  | "internal"; // 500: a bug

export class ParlanceError extends Error {
  override readonly name = "ParlanceError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra context for development mode only; never shown in production. */
    readonly details?: string,
    /** Seconds the caller should wait before trying again (an HTTP answer's Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const isParlanceError = (e: unknown): e is ParlanceError => e instanceof ParlanceError;

export const invalid = (message: string, details?: string) =>
  new ParlanceError("invalid_input", message, details);
export const notFound = (message: string) => new ParlanceError("not_found", message);
export const conflict = (message: string) => new ParlanceError("conflict", message);

/** API.md fixes this message text exactly. */
export const PAYLOAD_TOO_LARGE = "Payload too large";
export const payloadTooLarge = () => new ParlanceError("payload_too_large", PAYLOAD_TOO_LARGE);

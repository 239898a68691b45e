import { type ErrorCode, isParlanceError, ParlanceError } from "../core/index.ts";

/** The one table from error codes to HTTP statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  quota_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/**
 * What a 503 (storage unavailable) tells the client to wait before retrying: a database restart
 * or failover takes seconds, and clients retrying sooner only add load while it comes back.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** API.md's Error object. */
export interface ErrorBody {
  error: string;
  timestamp: string;
  details?: string;
}

export function errorBody(error: ParlanceError, now: Date, development: boolean): ErrorBody {
  const body: ErrorBody = { error: error.message, timestamp: now.toISOString() };
  if (development && error.details) body.details = error.details;
  return body;
}

/** Anything that is not a ParlanceError is a bug: a 500 whose cause only development mode shows. */
export function asParlanceError(e: unknown): ParlanceError {
  if (isParlanceError(e)) return e;
  const details = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ParlanceError("internal", "Internal server error", details);
}

/** A JSON response with the given headers already collected for this request. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
  });
}

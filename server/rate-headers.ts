import type { RateDecision } from "../core/index.ts";

/** API.md Limits: the three headers every /api/v1 response carries. */
export const rateHeaders = (rate: RateDecision): Record<string, string> => ({
  "x-ratelimit-limit": String(rate.limit),
  "x-ratelimit-remaining": String(rate.remaining),
  "x-ratelimit-reset": String(Math.ceil(rate.resetAt / 1000)),
});

/** The same three headers written straight into `headers` (a request's own), without an object between. */
export function setRateHeaders(headers: Record<string, string>, rate: RateDecision): void {
  headers["x-ratelimit-limit"] = String(rate.limit);
  headers["x-ratelimit-remaining"] = String(rate.remaining);
  headers["x-ratelimit-reset"] = String(Math.ceil(rate.resetAt / 1000));
}

import type { RateDecision } from "../core/index.ts";

/** API.md Limits: the three headers every /api/v1 response carries, written into `headers` (a request's own). */
export function setRateHeaders(headers: Record<string, string>, rate: RateDecision): void {
  headers["x-ratelimit-limit"] = String(rate.limit);
  headers["x-ratelimit-remaining"] = String(rate.remaining);
  headers["x-ratelimit-reset"] = String(Math.ceil(rate.resetAt / 1000));
}

/** The same three headers as an object of their own. */
export const rateHeaders = (rate: RateDecision): Record<string, string> => {
  const headers: Record<string, string> = {};
  setRateHeaders(headers, rate);
  return headers;
};

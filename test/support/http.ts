/**
 * Assertions shared by the HTTP suites: the Error object, the rate-limit headers, small request
 * builders. Generic on purpose: any suite may use them.
 */
import { expect } from "bun:test";

/** ISO 8601 date-time as the server writes it (UTC, milliseconds). */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface ErrorBody {
  error: string;
  timestamp: string;
  details?: string;
}

/**
 * Asserts `res` is the Error object with `status`: JSON, exactly `error` and `timestamp` (ISO 8601),
 * plus `details` only when `details: true`. `message` (string: substring; RegExp: match) checks the text.
 */
export async function expectErrorObject(
  res: Response,
  status: number,
  opts: { message?: string | RegExp; details?: boolean } = {},
): Promise<ErrorBody> {
  const text = await res.text();
  expect({ status: res.status, body: text }).toMatchObject({ status });
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  const body = JSON.parse(text) as ErrorBody;
  const keys = opts.details ? ["details", "error", "timestamp"] : ["error", "timestamp"];
  expect(Object.keys(body).sort()).toEqual(keys);
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.timestamp).toMatch(ISO_DATE);
  if (opts.details) expect(typeof body.details).toBe("string");
  if (typeof opts.message === "string") expect(body.error).toContain(opts.message);
  else if (opts.message) expect(body.error).toMatch(opts.message);
  return body;
}

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

/** The three X-RateLimit-* headers as numbers; fails when any is missing or not an integer. */
export function rateHeadersOf(res: Response): RateHeaders {
  const read = (name: string) => {
    const v = res.headers.get(name);
    expect({ header: name, value: v }).toEqual({ header: name, value: expect.stringMatching(/^\d+$/) });
    return Number(v);
  };
  return {
    limit: read("x-ratelimit-limit"),
    remaining: read("x-ratelimit-remaining"),
    reset: read("x-ratelimit-reset"),
  };
}

/** Asserts the rate-limit headers; fields left out are only checked for presence. */
export function expectRateHeaders(res: Response, expected: Partial<RateHeaders> = {}): RateHeaders {
  const actual = rateHeadersOf(res);
  expect(actual).toMatchObject(expected);
  return actual;
}

/** Unix second of `date` plus `ms`, rounded up: the X-RateLimit-Reset of a window starting at `date`. */
export const unixSeconds = (date: Date, ms = 0) => Math.ceil((date.getTime() + ms) / 1000);

/** A POST with an application/x-www-form-urlencoded body. */
export function formPost(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  };
}

/** `Authorization: Basic` for `user:password`, each form-urlencoded first (RFC 6749 §2.3.1). */
export const basicAuth = (user: string, password: string, encode = true) => {
  const enc = (s: string) => (encode ? encodeURIComponent(s) : s);
  return `Basic ${btoa(`${enc(user)}:${enc(password)}`)}`;
};

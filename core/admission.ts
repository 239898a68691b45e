import { authenticate, authenticateNow } from "./authenticate.ts";
import type { Deps, Settings } from "./context.ts";
import { isParlanceError, ParlanceError } from "./errors.ts";
import type { RateDecision } from "./ports.ts";
import type { KeyPrincipal } from "./principal.ts";
import type { UsageTracker } from "./usage.ts";

export const RATE_WINDOW_MS = 3600_000;

/** The outcome of letting one request in: who it is, its rate-limit state, and why it must stop. */
export interface Admission {
  principal: KeyPrincipal | null;
  rate: RateDecision;
  /** 429 when the window is spent: the request must not run. */
  limited: ParlanceError | null;
  /** Why there is no principal (401), for routes that need one. */
  authError: ParlanceError | null;
}

export const keyBucket = (keyId: string) => `key:${keyId}`;
export const addressBucket = (address: string) => `addr:${address}`;

/**
 * Authenticates and rate-limits one request (CONTRACT §4). A valid credential is charged to its
 * key's hourly window; anything else to the client address's window, so guessing keys is limited
 * too. Whether a missing principal matters is the route's call (documents and unknown routes need none).
 */
export async function admit(
  deps: Deps,
  settings: Settings,
  usage: UsageTracker,
  request: { authorization: string | null; address: () => string },
): Promise<Admission> {
  const nowMs = deps.clock.now().getTime();
  let principal: KeyPrincipal | null = null;
  let authError: ParlanceError | null = null;
  const stamp = usage.stamp();
  try {
    principal = await authenticate(deps, request.authorization);
    usage.noteRead(principal.key, stamp);
  } catch (e) {
    if (!isParlanceError(e)) throw e;
    authError = e;
  }
  const { rateLimiter } = deps;
  if (principal) {
    const rate = await rateLimiter.consume(
      keyBucket(principal.key.id),
      principal.key.rateLimit,
      RATE_WINDOW_MS,
      nowMs,
    );
    if (!rate.allowed) return { principal, rate, limited: rateLimited(rate, nowMs), authError: null };
    usage.record(principal.key.id, nowMs);
    return { principal, rate, limited: null, authError: null };
  }
  const rate = await rateLimiter.consume(
    addressBucket(request.address()),
    settings.anonRateLimit,
    RATE_WINDOW_MS,
    nowMs,
  );
  return { principal: null, rate, limited: rate.allowed ? null : rateLimited(rate, nowMs), authError };
}

/**
 * `admit` without waiting, when the store holds the key and the limiter the window in memory (the
 * common request on SQLite, and on Postgres between leases): the same admission, counted the same
 * way. `undefined`, with nothing counted, when either would have to wait: then ask `admit`.
 */
export function admitNow(
  deps: Deps,
  settings: Settings,
  usage: UsageTracker,
  request: { authorization: string | null; address: () => string },
): Admission | undefined {
  const { rateLimiter } = deps;
  if (!rateLimiter.consumeNow) return undefined;
  const nowMs = deps.clock.now().getTime();
  let principal: KeyPrincipal | null | undefined = null;
  let authError: ParlanceError | null = null;
  const stamp = usage.stamp();
  try {
    principal = authenticateNow(deps, request.authorization, nowMs);
    if (principal === undefined) return undefined;
    usage.noteRead(principal.key, stamp);
  } catch (e) {
    if (!isParlanceError(e)) throw e;
    authError = e;
  }
  if (principal) {
    const rate = rateLimiter.consumeNow(
      keyBucket(principal.key.id),
      principal.key.rateLimit,
      RATE_WINDOW_MS,
      nowMs,
    );
    if (rate === undefined) return undefined;
    if (!rate.allowed) return { principal, rate, limited: rateLimited(rate, nowMs), authError: null };
    usage.record(principal.key.id, nowMs);
    return { principal, rate, limited: null, authError: null };
  }
  const rate = rateLimiter.consumeNow(
    addressBucket(request.address()),
    settings.anonRateLimit,
    RATE_WINDOW_MS,
    nowMs,
  );
  if (rate === undefined) return undefined;
  return { principal: null, rate, limited: rate.allowed ? null : rateLimited(rate, nowMs), authError };
}

/** Seconds until the window ends, at least one. */
export const retryAfterSeconds = (rate: RateDecision, nowMs: number): number =>
  Math.max(1, Math.ceil((rate.resetAt - nowMs) / 1000));

function rateLimited(rate: RateDecision, nowMs: number): ParlanceError {
  const wait = retryAfterSeconds(rate, nowMs);
  return new ParlanceError(
    "rate_limited",
    `Rate limit of ${rate.limit} requests per hour exceeded; retry in ${wait} s`,
  );
}

/**
 * The client's only way to the server: bearer authentication, JSON bodies, and the waiting API.md
 * asks of clients — until `X-RateLimit-Reset` on 429, exponential backoff with jitter on network
 * errors and 5xx — each bounded so a command never hangs for good. Clock, sleep, randomness and
 * fetch are injectable so the policy can be tested without waiting.
 */
import { ApiError, apiErrorFrom } from "./api-error.ts";
import { ClientError } from "./errors.ts";

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds. */
  now?: () => number;
  /** In [0, 1). */
  random?: () => number;
  /** Messages about waiting (stderr); never stdout. */
  notify?: (message: string) => void;
  /** Tries per request for network errors and 5xx, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A 429 whose window ends later than this fails at once instead of waiting. */
  maxRateLimitWaitMs?: number;
  /** A request that has not answered by then counts as a network error. */
  timeoutMs?: number;
}

export interface RequestOptions {
  method?: "GET" | "POST";
  query?: Record<string, string | undefined>;
  json?: unknown;
}

export interface Http {
  /** The response of a 2xx answer; anything else throws a ClientError with the server's message. */
  request(path: string, options?: RequestOptions): Promise<Response>;
  json<T>(path: string, options?: RequestOptions): Promise<T>;
}

export const DEFAULTS = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRateLimitWaitMs: 10 * 60_000,
  // Long enough for a 12 MB push over a slow link; a hung connection still ends.
  timeoutMs: 5 * 60_000,
};

/** A second 429 right after waiting means the clocks disagree; a few waits cover it, more would loop. */
const MAX_RATE_LIMIT_WAITS = 3;

/**
 * "Equal jitter": half the exponential delay is fixed, half random. The delay still grows with
 * each attempt, while clients that failed together do not retry together.
 */
export function backoffDelay(failure: number, random: number, base: number, max: number): number {
  const exp = Math.min(max, base * 2 ** (failure - 1));
  return Math.round(exp / 2 + (random * exp) / 2);
}

/**
 * Milliseconds until the window ends. `X-RateLimit-Reset` is the contract's answer; when it is
 * absent or already past by our clock (skew), `Retry-After` (relative, so immune to skew) decides.
 * A 429 with requests left in the window (`X-RateLimit-Remaining` above 0) was not the window's
 * doing (the server's import queue was full): `Retry-After` says how long.
 */
export function rateLimitWait(headers: Headers, now: number): number {
  const reset = Number(headers.get("x-ratelimit-reset"));
  const windowSpent = !(Number(headers.get("x-ratelimit-remaining")) > 0);
  if (windowSpent && headers.has("x-ratelimit-reset") && Number.isFinite(reset) && reset * 1000 > now)
    return reset * 1000 - now;
  const retryAfter = Number(headers.get("retry-after"));
  if (headers.has("retry-after") && Number.isFinite(retryAfter) && retryAfter > 0) return retryAfter * 1000;
  return 1_000;
}

/** Between half and one and a half times `ms`: the same wait for everyone would meet again. */
export const jittered = (ms: number, random: number): number => Math.round(ms * (0.5 + random));

/** "42 s" or "17 min": waits are shown to people, who read minutes better than 1020 s. */
export function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

function describeNetworkError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === "string" && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}

export function createHttp(options: HttpOptions): Http {
  const o = { ...DEFAULTS, ...options };
  const fetchImpl = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const notify = options.notify ?? (() => {});

  function urlOf(path: string, query: RequestOptions["query"]): string {
    const url = new URL(`${o.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  }

  async function request(path: string, req: RequestOptions = {}): Promise<Response> {
    const url = urlOf(path, req.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${o.apiKey}`,
      accept: "application/json, */*",
      "user-agent": "parlance-cli",
    };
    // Serialized once: every retry sends the same bytes.
    const body = req.json === undefined ? undefined : JSON.stringify(req.json);
    if (body !== undefined) headers["content-type"] = "application/json";

    let failures = 0;
    let rateLimitWaits = 0;
    let queueWaitedMs = 0;
    for (;;) {
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method: req.method ?? "GET",
          headers,
          body,
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        failures++;
        const why = describeNetworkError(e);
        if (failures >= o.maxAttempts)
          throw new ClientError(`cannot reach ${o.baseUrl}: ${why} (gave up after ${failures} attempts)`);
        const delay = backoffDelay(failures, random(), o.baseDelayMs, o.maxDelayMs);
        notify(`cannot reach ${o.baseUrl} (${why}); retrying in ${duration(delay)}`);
        await sleep(delay);
        continue;
      }

      if (res.status === 429 && Number(res.headers.get("x-ratelimit-remaining")) > 0) {
        // Not the key's window (requests are left in it): the server's import queue is full. It
        // drains as jobs finish, so waiting goes on up to the bound, each wait jittered so that
        // CI jobs refused together do not all come back together.
        const delay = jittered(rateLimitWait(res.headers, now()), random());
        if (queueWaitedMs + delay > o.maxRateLimitWaitMs) {
          const err = await apiErrorFrom(res);
          throw new ApiError(
            `${err.message}; the server's import queue stayed full for ${duration(queueWaitedMs)}, giving up`,
            429,
          );
        }
        await res.body?.cancel();
        queueWaitedMs += delay;
        notify(`the server's import queue is full; retrying in ${duration(delay)}`);
        await sleep(delay);
        continue;
      }

      if (res.status === 429) {
        const wait = rateLimitWait(res.headers, now());
        rateLimitWaits++;
        if (wait > o.maxRateLimitWaitMs || rateLimitWaits > MAX_RATE_LIMIT_WAITS) {
          const err = await apiErrorFrom(res);
          const resetsAt = new Date(now() + wait).toISOString();
          throw new ApiError(
            rateLimitWaits > MAX_RATE_LIMIT_WAITS
              ? `${err.message}; still limited after waiting ${MAX_RATE_LIMIT_WAITS} times, giving up`
              : `${err.message}; not waiting ${duration(wait)} for the window to reset (the client waits at ` +
                  `most ${duration(o.maxRateLimitWaitMs)}): try again after ${resetsAt}`,
            429,
          );
        }
        await res.body?.cancel();
        notify(`rate limit reached; waiting ${duration(wait)} until the window resets`);
        await sleep(wait);
        continue;
      }

      if (res.status >= 500) {
        failures++;
        if (failures >= o.maxAttempts) throw await apiErrorFrom(res, `(gave up after ${failures} attempts)`);
        await res.body?.cancel();
        const delay = backoffDelay(failures, random(), o.baseDelayMs, o.maxDelayMs);
        notify(`server answered ${res.status}; retrying in ${duration(delay)}`);
        await sleep(delay);
        continue;
      }

      if (!res.ok) throw await apiErrorFrom(res);
      return res;
    }
  }

  return {
    request,
    async json<T>(path: string, req?: RequestOptions): Promise<T> {
      const res = await request(path, req);
      try {
        return (await res.json()) as T;
      } catch {
        throw new ClientError(`the server at ${o.baseUrl} answered ${path} with something that is not JSON`);
      }
    },
  };
}

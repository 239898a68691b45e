import { describe, expect, test } from "bun:test";
import { ApiError } from "../../server/cli/client/api-error.ts";
import { ClientError } from "../../server/cli/client/errors.ts";
import { backoffDelay, createHttp, type HttpOptions } from "../../server/cli/client/http.ts";

/** A scripted server: each call takes the next answer (a Response, or an Error to throw). */
function fake(answers: (Response | Error | (() => Response))[], extra: Partial<HttpOptions> = {}) {
  let clock = 1_700_000_000_000;
  const calls: { url: string; init: RequestInit; at: number }[] = [];
  const sleeps: number[] = [];
  const notes: string[] = [];
  const http = createHttp({
    baseUrl: "http://parlance.test",
    apiKey: "pl_key",
    fetch: async (url, init) => {
      calls.push({ url, init, at: clock });
      const next = answers.shift();
      if (next === undefined) throw new Error("no more scripted answers");
      if (next instanceof Error) throw next;
      return typeof next === "function" ? next() : next;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    random: () => 0.5,
    notify: (m) => notes.push(m),
    ...extra,
  });
  return { http, calls, sleeps, notes };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const ok = () => json(200, { data: "ok" });
const error = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: message, timestamp: new Date(0).toISOString() }, headers);

describe("rate limit (429)", () => {
  test("waits until X-RateLimit-Reset, then succeeds", async () => {
    const reset = Math.ceil((1_700_000_000_000 + 30_000) / 1000);
    const g = fake([
      error(429, "Rate limit exceeded", { "x-ratelimit-reset": String(reset), "retry-after": "30" }),
      ok(),
    ]);
    expect(await g.http.json("/api/v1/test")).toEqual({ data: "ok" });
    expect(g.sleeps).toEqual([reset * 1000 - 1_700_000_000_000]);
    expect(g.calls).toHaveLength(2);
    expect(g.calls[1]?.at).toBe(reset * 1000);
    expect(g.notes[0]).toContain("rate limit reached; waiting 30 s");
  });

  test("a reset further away than the bound fails at once with the server's message and when to retry", async () => {
    const start = 1_700_000_000_000;
    const reset = Math.ceil((start + 45 * 60_000) / 1000);
    const f = fake([
      error(429, "Rate limit of 1 requests per hour exceeded", { "x-ratelimit-reset": String(reset) }),
    ]);
    const e = await f.http.json("/api/v1/test").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect((e as Error).message).toContain("Rate limit of 1 requests per hour exceeded (HTTP 429)");
    expect((e as Error).message).toContain(new Date(reset * 1000).toISOString());
    expect(f.sleeps).toEqual([]);
  });

  test("the bound is configurable", async () => {
    const reset = Math.ceil((1_700_000_000_000 + 45 * 60_000) / 1000);
    const f = fake([error(429, "limited", { "x-ratelimit-reset": String(reset) }), ok()], {
      maxRateLimitWaitMs: 60 * 60_000,
    });
    await f.http.json("/x");
    expect(f.sleeps).toEqual([reset * 1000 - 1_700_000_000_000]);
  });

  test("a 429 with requests left in the window (a full import queue) waits Retry-After, not the reset", async () => {
    const reset = Math.ceil((1_700_000_000_000 + 40 * 60_000) / 1000);
    const g = fake([
      error(429, "Too many imports are waiting (100); retry in 10 s", {
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-remaining": "41",
        "retry-after": "10",
      }),
      ok(),
    ]);
    expect(await g.http.json("/api/v1/push", { method: "POST", json: {} })).toEqual({ data: "ok" });
    // Retry-After jittered (the fake's random is 0.5: exactly Retry-After), and said as what it is.
    expect(g.sleeps).toEqual([10_000]);
    expect(g.notes).toEqual(["the server's import queue is full; retrying in 10 s"]);
  });

  test("a full import queue is waited out as long as the bound allows, each wait jittered", async () => {
    const full = () =>
      error(429, "Too many imports are waiting (1); retry in 10 s", {
        "x-ratelimit-remaining": "41",
        "retry-after": "10",
      });
    const draws = [0, 0.99, 0.25, 0.75, 0.5, 0.1];
    const f = fake([full(), full(), full(), full(), full(), full(), ok()], {
      random: () => draws.shift() ?? 0.5,
    });
    expect(await f.http.json("/api/v1/push", { method: "POST", json: {} })).toEqual({ data: "ok" });
    expect(f.sleeps).toEqual([5_000, 14_900, 7_500, 12_500, 10_000, 6_000]);

    const bounded = fake(
      Array.from({ length: 10 }, () => full()),
      { maxRateLimitWaitMs: 30_000 },
    );
    const e = await bounded.http.json("/api/v1/push", { method: "POST", json: {} }).catch((x: unknown) => x);
    expect((e as Error).message).toBe(
      "Too many imports are waiting (1); retry in 10 s (HTTP 429); the server's import queue stayed full for 30 s, giving up",
    );
    expect(bounded.sleeps).toEqual([10_000, 10_000, 10_000]);
  });

  test("a reset already past by the client's clock falls back to Retry-After", async () => {
    const f = fake([error(429, "limited", { "x-ratelimit-reset": "1000", "retry-after": "7" }), ok()]);
    await f.http.json("/x");
    expect(f.sleeps).toEqual([7_000]);
  });

  test("still limited after a few waits: gives up instead of looping", async () => {
    const limited = () => error(429, "limited", { "retry-after": "1" });
    const f = fake([limited(), limited(), limited(), limited(), ok()]);
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect((e as Error).message).toContain("giving up");
    expect(f.sleeps).toEqual([1_000, 1_000, 1_000]);
  });
});

describe("5xx and network errors", () => {
  test("5xx is retried with exponential, jittered delays, up to a bounded number of attempts", async () => {
    const f = fake([1, 2, 3, 4, 5].map(() => error(503, "Storage unavailable")));
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as Error).message).toBe("Storage unavailable (HTTP 503) (gave up after 5 attempts)");
    expect(f.calls).toHaveLength(5);
    // random() = 0.5 → three quarters of 500, 1000, 2000, 4000 ms
    expect(f.sleeps).toEqual([375, 750, 1500, 3000]);
  });

  test("a 5xx followed by success returns the success", async () => {
    const f = fake([error(500, "boom"), error(502, "bad gateway"), ok()]);
    expect(await f.http.json("/x")).toEqual({ data: "ok" });
    expect(f.sleeps).toEqual([375, 750]);
    expect(f.notes).toEqual(["server answered 500; retrying in 1 s", "server answered 502; retrying in 1 s"]);
  });

  test("a network error is retried, sending the same request again", async () => {
    const f = fake([new TypeError("fetch failed"), new TypeError("fetch failed"), ok()]);
    expect(await f.http.json("/api/v1/push", { method: "POST", json: { a: 1 } })).toEqual({ data: "ok" });
    expect(f.calls).toHaveLength(3);
    expect(f.calls.map((c) => c.init.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
    expect(f.sleeps).toEqual([375, 750]);
  });

  test("a network error that persists ends with a message naming the server", async () => {
    const f = fake([1, 2, 3, 4, 5].map(() => new TypeError("Unable to connect")));
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ClientError);
    expect((e as Error).message).toBe(
      "cannot reach http://parlance.test: Unable to connect (gave up after 5 attempts)",
    );
  });

  test("the delay doubles per failure, is capped, and its jitter spans the upper half", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 1, 500, 8_000))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(backoffDelay(3, 0, 500, 8_000)).toBe(1000);
    expect(backoffDelay(3, 0.999, 500, 8_000)).toBeLessThanOrEqual(2000);
  });
});

describe("4xx", () => {
  test("is not retried; the Error object's message is the error", async () => {
    for (const status of [400, 401, 402, 403, 404, 409, 413]) {
      const f = fake([error(status, `message ${status}`), ok()]);
      const e = await f.http.json("/x").catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as Error).message).toBe(`message ${status} (HTTP ${status})`);
      expect(f.calls).toHaveLength(1);
      expect(f.sleeps).toEqual([]);
    }
  });

  test("details (development servers) follow on their own line", async () => {
    const f = fake([json(400, { error: "Invalid body", details: "content: expected string" })]);
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect((e as Error).message).toBe("Invalid body (HTTP 400)\ncontent: expected string");
  });

  test("an answer that is not an Error object still says what answered", async () => {
    const f = fake([new Response("<html>nope</html>", { status: 418, statusText: "I'm a teapot" })]);
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect((e as Error).message).toBe(
      "HTTP 418 I'm a teapot, without Parlance's Error object: most likely a proxy in front of it answered",
    );
  });

  test("a proxy's 413 says which limit to raise", async () => {
    const page = "<html><center><h1>413 Request Entity Too Large</h1></center></html>";
    const f = fake([new Response(page, { status: 413, statusText: "Request Entity Too Large" })]);
    const e = await f.http.json("/x").catch((x: unknown) => x);
    expect((e as Error).message).toBe(
      "HTTP 413 Request Entity Too Large, without Parlance's Error object: most likely a proxy in front of it answered; let it pass bodies of up to 13 MiB (nginx: client_max_body_size 13m)",
    );
  });
});

test("requests carry the bearer key, JSON bodies and only the query parameters given", async () => {
  const f = fake([ok()]);
  await f.http.request("/api/v1/pull", { query: { project_id: "p", language: "fr", format: undefined } });
  const call = f.calls[0];
  expect(call?.url).toBe("http://parlance.test/api/v1/pull?project_id=p&language=fr");
  expect((call?.init.headers as Record<string, string> | undefined)?.authorization).toBe("Bearer pl_key");
  expect(call?.init.method).toBe("GET");
});

/**
 * The global hooks read the listening server from the app rather than from their context (so that
 * Elysia prepares no `server` getter per request: test/server/hook-inference.test.ts). Served by
 * Bun, an anonymous request is still charged to its socket peer's address, both where the request
 * hook admits it (a known route without credentials) and where the error hook does (an unknown
 * route); through `app.handle` there is no server, as before.
 */
import { expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import type { RateLimiter } from "../../core/index.ts";
import { createServer } from "../../server/app.ts";
import { bunHost } from "../../server/host-bun.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

/** Answers like an empty window and remembers every bucket charged. */
function spyLimiter(buckets: string[]): RateLimiter {
  return {
    async consume(bucket, limit, windowMs, nowMs) {
      buckets.push(bucket);
      return { allowed: true, limit, remaining: limit - 1, resetAt: nowMs + windowMs };
    },
    async flush() {},
  };
}

test("an anonymous request served by Bun is charged to its peer address, in the request and the error hook", async () => {
  const buckets: string[] = [];
  const app = createServer(
    createParlance({ storage: createMemoryStorage(), rateLimiter: spyLimiter(buckets) }),
  );
  const listening = await bunHost.listen(app, "127.0.0.1", 0, false);
  try {
    const base = `http://127.0.0.1:${listening.port}`;
    const known = await fetch(`${base}/api/v1/test`);
    expect(known.status).toBe(401);
    const unknown = await fetch(`${base}/api/v1/nowhere`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(buckets).toEqual(["addr:127.0.0.1", "addr:127.0.0.1"]);
  } finally {
    await listening.stop();
  }
});

test("through app.handle (no listening server) the peer is unknown", async () => {
  const buckets: string[] = [];
  const app = createServer(
    createParlance({ storage: createMemoryStorage(), rateLimiter: spyLimiter(buckets) }),
  );
  expect((await app.handle(new Request("http://localhost/api/v1/test"))).status).toBe(401);
  expect((await app.handle(new Request("http://localhost/api/v1/nowhere"))).status).toBe(404);
  expect(buckets).toEqual(["addr:unknown", "addr:unknown"]);
});

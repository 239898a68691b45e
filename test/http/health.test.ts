import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";

await forEachStore((kind) => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer(kind);
  });
  afterEach(() => s.close());

  test("GET /healthz answers ok without auth and without rate-limit headers", async () => {
    const res = await s.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("GET /healthz answers 503 once storage stops answering", async () => {
    s.parlance.storage.ping = () => Promise.reject(new Error("down"));
    const res = await s.request("/healthz");
    expect(res.status).toBe(503);
  });
});

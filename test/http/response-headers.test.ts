/**
 * Headers every answer carries, and the caps on the request itself (issue 10): nosniff everywhere,
 * no-store where a secret is answered, 414 and 431 as the Error object.
 */
import { describe, expect, test } from "bun:test";
import { forEachStore, type TestServer, useWorld, type World } from "../support/harness.ts";
import { expectErrorObject, expectRateHeaders, formPost } from "../support/http.ts";

await forEachStore((kind) => {
  let w: World;
  useWorld(kind, (world) => {
    w = world;
  });
  const s = (): TestServer => w.s;

  test("every answer carries X-Content-Type-Options: nosniff", async () => {
    await s().request("/api/v1/push", {
      method: "POST",
      key: w.key,
      json: { projectId: w.projectId, language: "en", content: '{"a":"b"}' },
    });
    await s().idle();
    const pull = await s().request(`/api/v1/pull?project_id=${w.projectId}&language=en`, { key: w.key });
    const etag = pull.headers.get("etag") as string;
    const answers: [string, RequestInit & { key?: string; json?: unknown }][] = [
      ["/api/v1/test", { key: w.key }],
      ["/api/v1/test", {}],
      ["/api/v1/test", { key: "pl_nope" }],
      ["/api/v1/nowhere", { key: w.key }],
      ["/api/v1/test", { method: "POST", key: w.key }],
      [`/api/v1/pull?project_id=${w.projectId}&language=en`, { key: w.key }],
      [`/api/v1/pull?project_id=${w.projectId}&language=en&format=csv`, { key: w.key }],
      [
        `/api/v1/pull?project_id=${w.projectId}&language=en`,
        { key: w.key, headers: { "if-none-match": etag } },
      ],
      [`/api/v1/coverage?project_id=${w.projectId}`, { key: w.key }],
      ["/api/v1/push", { method: "POST", key: w.key, json: { content: 1 } }],
      ["/api/v1/api-keys", { method: "POST", key: w.key, json: { name: "n", scopes: ["admin"] } }],
      ["/api/v1/auth/token", formPost({ grant_type: "client_credentials", client_secret: w.key })],
      ["/api/v1/auth/token", formPost({ grant_type: "client_credentials", client_secret: "x" })],
      ["/api/v1/openapi.json", {}],
      ["/api/v1/docs", {}],
      ["/healthz", {}],
      ["/nowhere", {}],
    ];
    for (const [path, init] of answers) {
      const res = await s().request(path, init);
      expect({ path, status: res.status, nosniff: res.headers.get("x-content-type-options") }).toEqual({
        path,
        status: res.status,
        nosniff: "nosniff",
      });
    }
  });

  test("answers holding a secret say Cache-Control: no-store", async () => {
    const created = await s().request("/api/v1/api-keys", {
      method: "POST",
      key: w.key,
      json: { name: "fresh", scopes: ["admin"] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const token = await s().request(
      "/api/v1/auth/token",
      formPost({ grant_type: "client_credentials", client_secret: w.key }),
    );
    expect(token.headers.get("cache-control")).toBe("no-store");
  });

  describe("caps on the request", () => {
    test("a query string past 8 KiB is 414 with the Error object and the rate headers", async () => {
      const res = await s().request(`/api/v1/projects?x=${"a".repeat(9000)}`, { key: w.key });
      const body = await expectErrorObject(res, 414, { message: "8,192" });
      expect(body.error).toContain("URI");
      expectRateHeaders(res);
      const docs = await s().request(`/healthz?x=${"a".repeat(9000)}`);
      await expectErrorObject(docs, 414);
    });

    test("headers past 12 KiB are 431 with the Error object", async () => {
      const res = await s().request("/api/v1/projects", {
        key: w.key,
        headers: { "x-padding": "p".repeat(13 * 1024) },
      });
      await expectErrorObject(res, 431, { message: "12,288" });
      expectRateHeaders(res);
    });
  });
});

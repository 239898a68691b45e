import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/harness.ts";

/** The document is generated from the route schemas: these tests pin what a client generator needs. */
describe("OpenAPI document and docs page", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer("memory");
  });
  afterEach(() => s.close());

  const ENDPOINTS: [string, string][] = [
    ["get", "/api/v1/test"],
    ["get", "/api/v1/project"],
    ["get", "/api/v1/projects"],
    ["get", "/api/v1/pull"],
    ["get", "/api/v1/export"],
    ["post", "/api/v1/push"],
    ["post", "/api/v1/import"],
    ["get", "/api/v1/jobs/{jobId}"],
    ["get", "/api/v1/coverage"],
    ["get", "/api/v1/translations"],
    ["get", "/api/v1/api-keys"],
    ["post", "/api/v1/api-keys"],
    ["post", "/api/v1/auth/token"],
  ];

  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked structurally
  const spec = async (): Promise<any> => {
    const res = await s.request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    return res.json();
  };

  test("is OpenAPI 3, version 1.0.0, with the bearer scheme, served without a key", async () => {
    const doc = await spec();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  test("documents every endpoint, with parameters, bodies and responses from the schemas", async () => {
    const doc = await spec();
    for (const [method, path] of ENDPOINTS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op.responses ?? {}).length, `${method} ${path} responses`).toBeGreaterThan(0);
    }
    const pull = doc.paths["/api/v1/pull"].get;
    const names = pull.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(["project_id", "language", "format", "environment", "selected_ids"]),
    );
    expect(pull.parameters.find((p: { name: string }) => p.name === "project_id").required).toBe(true);
    const push = doc.paths["/api/v1/push"].post;
    expect(push.requestBody.content["application/json"].schema.required).toEqual([
      "content",
      "language",
      "projectId",
    ]);
    expect(Object.keys(push.responses)).toEqual(
      expect.arrayContaining(["200", "202", "400", "401", "402", "403", "404", "413", "429"]),
    );
    expect(push.responses["413"].content["application/json"].schema.required).toEqual(["error", "timestamp"]);
    expect(doc.paths["/api/v1/auth/token"].post.security).toEqual([]);
  });

  test("marks the aliases deprecated and documents counts as integers", async () => {
    const doc = await spec();
    expect(doc.paths["/api/v1/export"].get.deprecated).toBe(true);
    expect(doc.paths["/api/v1/import"].post.deprecated).toBe(true);
    expect(doc.paths["/api/v1/pull"].get.deprecated).toBe(false);
    const preview = doc.paths["/api/v1/push"].post.responses["200"].content["application/json"].schema;
    expect(preview.properties.rowCount).toEqual({ type: "integer" });
  });

  test("the interactive page is served at /api/v1/docs", async () => {
    const res = await s.request("/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("openapi.json");
  });
});

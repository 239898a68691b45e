import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { startTestServer, type TestServer } from "../support/harness.ts";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked structurally
type Doc = any;

/** The document is generated from the route schemas: these tests pin what a client generator needs. */
describe("OpenAPI document", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer("memory");
  });
  afterEach(() => s.close());

  const ENDPOINTS: [string, string, string][] = [
    ["get", "/api/v1/test", "verifyAuthentication"],
    ["get", "/api/v1/project", "getProject"],
    ["get", "/api/v1/projects", "listProjects"],
    ["get", "/api/v1/pull", "pull"],
    ["get", "/api/v1/export", "exportDeprecated"],
    ["post", "/api/v1/push", "push"],
    ["post", "/api/v1/import", "importDeprecated"],
    ["get", "/api/v1/jobs/{jobId}", "getJob"],
    ["get", "/api/v1/coverage", "getCoverage"],
    ["get", "/api/v1/translations", "listTranslations"],
    ["get", "/api/v1/api-keys", "listApiKeys"],
    ["post", "/api/v1/api-keys", "createApiKey"],
    ["post", "/api/v1/auth/token", "requestToken"],
    ["get", "/healthz", "health"],
  ];

  const spec = async (): Promise<Doc> => {
    const res = await s.request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    return res.json();
  };
  const operations = (doc: Doc): [string, string, Doc][] =>
    Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [method, path, op] as [string, string, Doc]),
    );

  test("is OpenAPI 3.1, version 1.0.0, with servers, license, tags and the bearer scheme, served without a key", async () => {
    const doc = await spec();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.license.name.length).toBeGreaterThan(0);
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(doc.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(doc.security).toEqual([{ bearer: [] }]);
    const tags = doc.tags.map((t: { name: string }) => t.name);
    for (const [, , op] of operations(doc)) expect(tags).toEqual(expect.arrayContaining(op.tags));
    for (const tag of doc.tags) expect(tag.description.length).toBeGreaterThan(0);
  });

  test("documents every endpoint once, each with its operationId", async () => {
    const doc = await spec();
    const found = operations(doc).map(([method, path, op]) => [method, path, op.operationId]);
    expect(found.sort()).toEqual([...ENDPOINTS].sort());
  });

  test("names its shapes as components and refers to them: no inline copy of the Error object", async () => {
    const doc = await spec();
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining([
        "Error",
        "Project",
        "Job",
        "ApiKeyInfo",
        "CreatedApiKey",
        "KeyInfo",
        "PushRequest",
        "PushPreview",
        "PushAccepted",
        "Coverage",
        "LocaleCoverage",
        "TranslationsPage",
        "Translation",
        "Pagination",
        "TokenRequest",
        "TokenResponse",
        "OAuthError",
        "TranslationFile",
      ]),
    );
    const text = JSON.stringify(doc.paths);
    expect(text).not.toContain('"timestamp"');
    expect(text).not.toContain("x-parlance");
    // Every reference resolves.
    for (const [, kind, name] of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)) {
      expect(doc.components[kind as string]?.[name as string], `${kind}/${name}`).toBeDefined();
    }
    const push = doc.paths["/api/v1/push"].post;
    expect(push.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/PushRequest",
    });
    expect(doc.components.schemas.PushRequest.required).toEqual(["content", "language", "projectId"]);
    expect(push.responses["413"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    expect(doc.components.schemas.PushPreview.properties.rowCount.type).toBe("integer");
  });

  test("the token request is documented for both media types, with its fields", async () => {
    const doc = await spec();
    const token = doc.paths["/api/v1/auth/token"].post;
    expect(token.security).toEqual([]);
    expect(Object.keys(token.requestBody.content).sort()).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    const request = doc.components.schemas.TokenRequest;
    expect(Object.keys(request.properties).sort()).toEqual([
      "client_id",
      "client_secret",
      "grant_type",
      "scope",
    ]);
    expect(request.required).toEqual(["grant_type"]);
    expect(token.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TokenResponse",
    });
    expect(token.responses["200"].headers["Cache-Control"]).toBeDefined();
  });

  test("pull: JSON is an object of strings, the other formats text of their media type", async () => {
    const doc = await spec();
    const content = doc.paths["/api/v1/pull"].get.responses["200"].content;
    expect(content["application/json"].schema).toEqual({ $ref: "#/components/schemas/TranslationFile" });
    expect(doc.components.schemas.TranslationFile).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
    });
    for (const type of ["text/csv", "application/xliff+xml", "application/xml", "application/yaml"]) {
      expect(content[type].schema).toEqual({ type: "string" });
    }
  });

  test("declares the response headers: rate limits everywhere, and each operation's own", async () => {
    const doc = await spec();
    const required = (header: { $ref?: string }) => !!header?.$ref?.startsWith("#/components/headers/");
    for (const [method, path, op] of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses) as [string, { headers: object }][]) {
        const headers = response.headers as Record<string, { $ref?: string; required?: boolean }>;
        const where = `${method} ${path} ${status}`;
        if (path.startsWith("/api/v1")) {
          for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
            expect(headers[name], `${where} ${name}`).toBeDefined();
            expect(required(headers[name] as object), `${where} ${name}`).toBe(status !== "503");
          }
        }
        if (status === "401") expect(required(headers["WWW-Authenticate"] as object), where).toBe(true);
        if (status === "429") expect(required(headers["Retry-After"] as object), where).toBe(true);
        if (status === "503") expect(headers["Retry-After"], where).toBeDefined();
        if (status === "405") expect(required(headers.Allow as object), where).toBe(true);
        if (op.deprecated) {
          expect(required(headers.Deprecation as object), where).toBe(true);
          expect(required(headers.Link as object), where).toBe(true);
        }
      }
    }
    const pull = doc.paths["/api/v1/pull"].get.responses;
    expect(Object.keys(pull["200"].headers)).toEqual(expect.arrayContaining(["ETag", "Content-Disposition"]));
    expect(Object.keys(pull["304"].headers)).toContain("ETag");
    expect(Object.keys(doc.paths["/api/v1/push"].post.responses["202"].headers)).toContain("Location");
    expect(Object.keys(doc.paths["/api/v1/api-keys"].post.responses["201"].headers)).toContain(
      "Cache-Control",
    );
    expect(doc.components.headers["X-RateLimit-Reset"].schema.type).toBe("integer");
  });

  test("405 and 431 everywhere, 415 and 413 where a body is read", async () => {
    const doc = await spec();
    for (const [method, path, op] of operations(doc)) {
      const statuses = Object.keys(op.responses);
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["405", "431", "500"]));
      if (op.requestBody)
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["413", "415"]));
      // A query parameter given twice is 400 wherever a credential is needed.
      if (path.startsWith("/api/v1") && op.security?.length)
        expect(statuses, `${method} ${path}`).toContain("400");
    }
  });

  test("query parameters have real types: integers, and the values pull takes listed", async () => {
    const doc = await spec();
    const schemaOf = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    for (const path of ["/api/v1/api-keys", "/api/v1/translations"]) {
      for (const name of ["limit", "offset"])
        expect(schemaOf(path, name).type, `${path} ${name}`).toBe("integer");
    }
    const listed = {
      format: ["json", "csv", "xliff", "xml", "yaml"],
      bom: ["true", "false"],
      xliff_version: ["1.2", "2.0"],
    };
    const { project, key } = await s.seed.world();
    await s.request("/api/v1/push", {
      method: "POST",
      key: key.key,
      json: { projectId: project.id, language: "fr", content: '{"a":"b"}' },
    });
    await s.idle();
    const pull = (query: string) =>
      s.request(`/api/v1/pull?project_id=${project.id}&language=fr&${query}`, { key: key.key });
    for (const [name, values] of Object.entries(listed)) {
      expect(schemaOf("/api/v1/pull", name)).toMatchObject({ type: "string", enum: values });
      // The list is the server's: each listed value is served, anything else is 400 naming the parameter.
      for (const value of values)
        expect((await pull(`${name}=${value}`)).status, `${name}=${value}`).toBe(200);
      const other = await pull(`${name}=${values[0]?.toUpperCase()}x`);
      expect(other.status).toBe(400);
      expect(((await other.json()) as { error: string }).error).toContain(name);
    }
  });

  test("every operation names its scope, and the server enforces exactly that scope", async () => {
    const doc = await spec();
    const { orgId, project } = await s.seed.world();
    for (const [method, path, op] of operations(doc)) {
      const where = `${method} ${path}`;
      const scope = op["x-required-scope"];
      expect(scope === null || (SCOPES as readonly string[]).includes(scope), where).toBe(true);
      if (op.security?.length === 0) {
        expect(scope, where).toBeNull();
        expect(op.description, where).toContain("No credential needed");
        continue;
      }
      expect(op.security, where).toEqual([{ bearer: scope === null ? [] : [scope] }]);
      expect(op.description, where).toContain(
        scope === null ? "no scope needed" : `Required scope: \`${scope}\``,
      );
      // A key with every other scope is refused (403); a key with only this one is not.
      const url = path.replace("{jobId}", crypto.randomUUID());
      const send = async (scopes: string[]) => {
        const key = await s.seed.key(orgId, { scopes: scopes as (typeof SCOPES)[number][] });
        const init: RequestInit & { key: string; json?: unknown } = {
          method: method.toUpperCase(),
          key: key.key,
        };
        if (method === "post")
          init.json = {
            projectId: project.id,
            language: "fr",
            content: "{}",
            name: "k",
            scopes: ["admin"],
            dryRun: true,
          };
        return s.request(`${url}?project_id=${project.id}&language=fr`, init);
      };
      const others = SCOPES.filter((x) => x !== scope);
      if (scope !== null) expect((await send(others)).status, `${where} without ${scope}`).toBe(403);
      const only = await send([scope ?? "export:read"]);
      expect(only.status, `${where} with only ${scope}`).not.toBe(403);
      expect(only.status, `${where} with only ${scope}`).not.toBe(401);
    }
  });
});

test("the README's scope table says what the document says", async () => {
  const s = await startTestServer("memory");
  try {
    const doc = await (await s.request("/api/v1/openapi.json")).json();
    const readme = await Bun.file(new URL("../../README.md", import.meta.url)).text();
    const table = readme.slice(readme.indexOf("## Scopes"));
    const rows = [...table.matchAll(/^\| (\(none\)|`[a-z:]+`) +\|[^|]+\| (.+?) +\|$/gm)];
    const documented = new Map<string, string | null>();
    for (const [, scope, endpoints] of rows) {
      for (const [, method, path] of (endpoints as string).matchAll(/`(GET|POST) ([^`]+)`/g)) {
        documented.set(`${method} ${path}`, scope === "(none)" ? null : (scope as string).replace(/`/g, ""));
      }
    }
    const expected = new Map<string, string | null>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.security?.length !== 0)
          expected.set(`${method.toUpperCase()} ${path}`, op["x-required-scope"]);
      }
    }
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected));
  } finally {
    await s.close();
  }
});

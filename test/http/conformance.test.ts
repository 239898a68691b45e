import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildDocument } from "../../server/openapi/document.ts";
import { startTestServer, type TestServer } from "../support/harness.ts";
import { type Conformance, createConformance } from "../support/openapi-conformance.ts";

/** The checker every HTTP suite runs through (test/support/harness.ts) must be able to fail. */
describe("conformance checker", () => {
  let s: TestServer;
  let checker: Conformance;
  beforeAll(async () => {
    s = await startTestServer("memory");
    checker = createConformance(buildDocument(s.app));
  });
  afterAll(() => s.close());

  const rate = {
    "x-ratelimit-limit": "1000",
    "x-ratelimit-remaining": "999",
    "x-ratelimit-reset": "1780000000",
  };
  const json = (status: number, body: unknown, headers: Record<string, string> = rate) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
    });
  const get = (path: string, method = "GET") => new Request(`http://localhost${path}`, { method });
  const project = { id: crypto.randomUUID(), name: "App", baseLanguage: "en", languages: ["en", "fr"] };
  const error = { error: "No", timestamp: "2026-06-01T12:00:00.000Z" };

  test("a conforming answer passes", async () => {
    expect(
      await checker.check(get("/api/v1/projects"), json(200, { success: true, data: [project] })),
    ).toEqual([]);
    expect(await checker.check(get("/api/v1/nope"), json(404, error))).toEqual([]);
    const allowed = json(405, error, { ...rate, allow: "GET" });
    expect(await checker.check(get("/api/v1/projects", "DELETE"), allowed)).toEqual([]);
  });

  test("a status the operation does not declare fails, naming the operation", async () => {
    const problems = await checker.check(get("/api/v1/projects"), json(404, error));
    expect(problems.join("\n")).toContain(
      "status 404 is not declared for GET /api/v1/projects (listProjects)",
    );
  });

  test("a missing required header fails", async () => {
    const { "x-ratelimit-reset": _, ...partial } = rate;
    const problems = await checker.check(
      get("/api/v1/projects"),
      json(200, { success: true, data: [] }, partial),
    );
    expect(problems.join("\n")).toContain("required header X-RateLimit-Reset is missing");
    const noAllow = await checker.check(get("/api/v1/projects", "DELETE"), json(405, error));
    expect(noAllow.join("\n")).toContain("required header Allow is missing");
    const badNumber = await checker.check(
      get("/api/v1/projects"),
      json(200, { success: true, data: [] }, { ...rate, "x-ratelimit-remaining": "-1" }),
    );
    expect(badNumber.join("\n")).toContain("X-RateLimit-Remaining");
  });

  test("a body of the wrong shape, or with a field the document does not name, fails", async () => {
    const wrongType = await checker.check(
      get("/api/v1/projects"),
      json(200, { success: true, data: [{ ...project, languages: "en" }] }),
    );
    expect(wrongType.join("\n")).toContain("body/data/0/languages must be array");
    const extra = await checker.check(
      get("/api/v1/projects"),
      json(200, { success: true, data: [{ ...project, orgId: crypto.randomUUID() }] }),
    );
    expect(extra.join("\n")).toContain('"additionalProperty":"orgId"');
    const unknownRoute = await checker.check(get("/api/v1/nope"), json(404, { message: "x" }));
    expect(unknownRoute.length).toBeGreaterThan(0);
  });

  test("a media type the operation does not list fails", async () => {
    const text = new Response("a,b", { status: 200, headers: { "content-type": "text/plain", ...rate } });
    const problems = await checker.check(get("/api/v1/projects"), text);
    expect(problems.join("\n")).toContain("content type text/plain is not one of application/json");
  });
});

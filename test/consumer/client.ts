/**
 * A client someone else would write: openapi-fetch typed by openapi-typescript from the document
 * Parlance serves (generated/parlance.d.ts, made by the test). It compiles with tsc --strict only
 * if the document's types are real: a shape that came out `never` or `any` fails the checks below.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/parlance";

type Schemas = components["schemas"];
type IsNever<T> = [T] extends [never] ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
type Real<T> = IsNever<T> extends true ? false : IsAny<T> extends true ? false : true;
type Expect<T extends true> = T;

export type Checks = [
  Expect<Real<Schemas["Project"]>>,
  Expect<Real<Schemas["Job"]>>,
  Expect<Real<Schemas["Error"]>>,
  Expect<Real<Schemas["ApiKeyInfo"]>>,
  Expect<Real<Schemas["CreatedApiKey"]>>,
  Expect<Real<Schemas["KeyInfo"]>>,
  Expect<Real<Schemas["PushRequest"]>>,
  Expect<Real<Schemas["PushPreview"]>>,
  Expect<Real<Schemas["PushAccepted"]>>,
  Expect<Real<Schemas["Coverage"]>>,
  Expect<Real<Schemas["LocaleCoverage"]>>,
  Expect<Real<Schemas["TranslationsPage"]>>,
  Expect<Real<Schemas["Pagination"]>>,
  Expect<Real<Schemas["TokenRequest"]>>,
  Expect<Real<Schemas["TokenResponse"]>>,
  Expect<Real<Schemas["OAuthError"]>>,
  Expect<Schemas["Job"]["status"] extends "pending" | "running" | "completed" | "failed" ? true : false>,
  Expect<Schemas["TranslationFile"] extends Record<string, string> ? true : false>,
];

export interface Outcome {
  whoami: Schemas["KeyInfo"];
  projects: Schemas["Project"][];
  preview: Schemas["PushPreview"];
  accepted: Schemas["PushAccepted"];
  location: string | null;
  job: Schemas["Job"];
  pulled: Schemas["TranslationFile"];
  coverage: Schemas["Coverage"];
  keys: Schemas["ApiKeyInfo"][];
  created: Schemas["CreatedApiKey"];
  refused: Schemas["Error"];
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: no data`);
  return value;
}

/** whoami, projects, a push (dry run, then for real), the job until it ends, pull, coverage, keys. */
export async function run(baseUrl: string, key: string, projectId: string): Promise<Outcome> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

  const whoami = must((await client.GET("/api/v1/test")).data, "whoami").data;
  const rateLimit: number = whoami.rateLimit;
  // @ts-expect-error the document says rateLimit is an integer, not a string
  const wrong: string = whoami.rateLimit;
  void [rateLimit, wrong];

  const projects = must((await client.GET("/api/v1/projects")).data, "projects").data;
  const content = JSON.stringify({ home: { title: "Bienvenue", body: "Bonjour" } });
  const body: Schemas["PushRequest"] = { projectId, language: "fr", content, dryRun: true };
  const dry = await client.POST("/api/v1/push", { body });
  if (dry.response.status !== 200 || !dry.data || !("rowCount" in dry.data)) throw new Error("dry run");
  const preview: Schemas["PushPreview"] = dry.data;

  const pushed = await client.POST("/api/v1/push", { body: { ...body, dryRun: false } });
  if (pushed.response.status !== 202 || !pushed.data || !("jobId" in pushed.data)) throw new Error("push");
  const accepted: Schemas["PushAccepted"] = pushed.data;

  let job: Schemas["Job"] | undefined;
  for (let i = 0; i < 200; i++) {
    const polled = await client.GET("/api/v1/jobs/{jobId}", {
      params: { path: { jobId: accepted.jobId } },
    });
    job = must(polled.data, "job").data;
    if (job.status !== "pending" && job.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const file = must(
    (await client.GET("/api/v1/pull", { params: { query: { project_id: projectId, language: "fr" } } })).data,
    "pull",
  );
  // Text for the other formats; format=json (the default) is the flat object of strings.
  if (typeof file === "string") throw new Error("pull: JSON expected");
  const pulled: Schemas["TranslationFile"] = file;
  const coverage = must(
    (await client.GET("/api/v1/coverage", { params: { query: { project_id: projectId } } })).data,
    "coverage",
  ).data;
  const keys = must(
    (await client.GET("/api/v1/api-keys", { params: { query: { limit: 5 } } })).data,
    "keys",
  ).data;
  const created = must(
    (await client.POST("/api/v1/api-keys", { body: { name: "from-typed-client", scopes: ["export:read"] } }))
      .data,
    "create key",
  ).data;
  const duplicate = await client.POST("/api/v1/api-keys", {
    body: { name: "from-typed-client", scopes: ["export:read"] },
  });
  const refused: Schemas["Error"] = must(duplicate.error, "duplicate key");

  return {
    whoami,
    projects,
    preview,
    accepted,
    location: pushed.response.headers.get("location"),
    job: must(job, "job"),
    pulled,
    coverage,
    keys,
    created,
    refused,
  };
}

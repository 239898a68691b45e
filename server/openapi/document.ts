import { enumToOpenApi, nullToOpenApi, toOpenAPISchema } from "@elysiajs/openapi/openapi";
import type { AnyElysia } from "elysia";
import { COMPONENT } from "../schemas.ts";
import { API_DESCRIPTION, INFO, servers } from "./description.ts";
import { HEADERS, type HeaderName, STATUS_TEXT } from "./headers.ts";
import { FINISH, type FinishInstructions, TAGS } from "./operation.ts";

/** A JSON value of the document, walked structurally. */
type Json = Record<string, unknown>;

export const OPENAPI_VERSION = "3.1.1";
const API_PREFIX = "/api/v1";
const ERROR_REF = { $ref: "#/components/schemas/Error" };
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The OpenAPI document of `app`: @elysiajs/openapi's generator turns the route schemas into paths,
 * then this finishes what a generator cannot know: named components behind `$ref`, the statuses
 * and headers every answer can carry, scopes, servers, tags (docs/api.md describes the result).
 */
export function buildDocument(app: AnyElysia, basePath = ""): Json {
  const generated = toOpenAPISchema(app, undefined, undefined, undefined, OPENAPI_VERSION);
  // A deep copy: the generator hands out the live route schemas, which validation still uses.
  const paths = JSON.parse(JSON.stringify(generated.paths)) as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) finishOperation(path, op);
    }
  }
  const schemas: Record<string, unknown> = {};
  const finishedPaths = withRefs(paths, schemas, new Map());
  return {
    openapi: OPENAPI_VERSION,
    info: { ...INFO, description: API_DESCRIPTION },
    servers: servers(basePath),
    security: [{ bearer: [] }],
    tags: TAGS,
    paths: finishedPaths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
      headers: Object.fromEntries(
        Object.entries(HEADERS).map(([name, header]) => [name, { ...header, required: true }]),
      ),
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key (pl_ and 64 hex characters) or an access token from POST /api/v1/auth/token. " +
            "The role listed on each operation is the scope the credential needs.",
        },
      },
    },
  };
}

/** The statuses every operation of its kind can answer besides its own (docs/api.md). */
function implicitStatuses(path: string, finish: FinishInstructions, scoped: boolean): number[] {
  const statuses = [405, 414, 431, 500];
  if (path.startsWith(API_PREFIX)) statuses.push(429, 503);
  if (!finish.public) statuses.push(401);
  if (scoped) statuses.push(403);
  // A query parameter given twice is 400 on every operation that needs a credential (server/query-once.ts).
  if (finish.hasBody || (!finish.public && path.startsWith(API_PREFIX))) statuses.push(400);
  if (finish.hasBody) statuses.push(408, 413, 415);
  return statuses;
}

function finishOperation(path: string, op: Json): void {
  const finish = op[FINISH] as FinishInstructions | undefined;
  if (!finish) throw new Error(`${path}: every operation is described with operation() (server/openapi)`);
  delete op[FINISH];
  if (finish.requestBody) {
    const { schema, mediaTypes, description } = finish.requestBody;
    const plain = JSON.parse(JSON.stringify(nullToOpenApi(enumToOpenApi(schema), OPENAPI_VERSION)));
    op.requestBody = {
      description,
      required: true,
      content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: plain }])),
    };
  } else if (finish.requestBodyName && op.requestBody) {
    for (const media of Object.values((op.requestBody as Json).content as Record<string, Json>)) {
      (media.schema as Json)[COMPONENT] = finish.requestBodyName;
      defaultsInWords(media.schema as Json);
    }
  }
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const scoped = typeof op["x-required-scope"] === "string";
  for (const status of implicitStatuses(path, finish, scoped)) {
    responses[status] ??= { content: { "application/json": { schema: ERROR_REF } } };
  }
  const sorted: Record<string, Json> = {};
  for (const status of Object.keys(responses).sort()) {
    const response = responses[status] as Json;
    const code = Number(status);
    // Errors say what the status means; successes what the body is (its schema's description).
    const generic =
      code >= 300 || !response.description || /^Response for status/.test(`${response.description}`);
    sorted[status] = {
      ...response,
      description: generic ? (STATUS_TEXT[code] ?? `Status ${code}`) : response.description,
      headers: headersFor(path, code, finish, op.deprecated === true),
    };
  }
  op.responses = sorted;
}

function headersFor(path: string, status: number, finish: FinishInstructions, deprecated: boolean): Json {
  const headers: Partial<Record<HeaderName, boolean>> = {};
  // CONTRACT §4: every /api/v1 answer; a 503 from an unreachable store may lack them.
  if (path.startsWith(API_PREFIX)) {
    for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const) {
      headers[name] = status !== 503;
    }
  }
  if (status === 401) headers["WWW-Authenticate"] = true;
  if (status === 429) headers["Retry-After"] = true;
  if (status === 503) headers["Retry-After"] = false;
  if (status === 405) headers.Allow = true;
  if (deprecated) {
    headers.Deprecation = true;
    headers.Link = true;
  }
  Object.assign(headers, finish.headers[status]);
  // A reference cannot say `required: false` beside it, so optional headers are written out.
  return Object.fromEntries(
    Object.entries(headers).map(([name, required]) => [
      name,
      required
        ? { $ref: `#/components/headers/${name}` }
        : { ...HEADERS[name as HeaderName], required: false },
    ]),
  );
}

/**
 * A request body's defaults go into the field's description: client generators read a `default`
 * as "always present", true of answers but not of what a caller may leave out (docs/api.md).
 */
function defaultsInWords(schema: Json): void {
  for (const field of Object.values((schema.properties ?? {}) as Record<string, Json>)) {
    if (!("default" in field)) continue;
    const said = `Default: ${JSON.stringify(field.default)}.`;
    field.description = field.description ? `${field.description}. ${said}` : said;
    delete field.default;
  }
}

/**
 * Replaces every schema marked as a component with a `$ref` to it, collecting the components.
 * Two uses of one name must be the same schema: a mismatch is a bug in the route schemas.
 */
export function withRefs<T>(node: T, schemas: Record<string, unknown>, seen: Map<string, string>): T {
  if (Array.isArray(node)) return node.map((n) => withRefs(n, schemas, seen)) as T;
  if (!node || typeof node !== "object") return node;
  const { [COMPONENT]: name, ...rest } = node as Json;
  const walked = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withRefs(v, schemas, seen)]));
  if (typeof name !== "string") return walked as T;
  const text = JSON.stringify(walked);
  const before = seen.get(name);
  if (before !== undefined && before !== text) {
    throw new Error(`OpenAPI component ${name} is used with two different schemas:\n${before}\n${text}`);
  }
  seen.set(name, text);
  // A named enum is a type, used by fields that may each have their own default: it has none.
  if ("enum" in walked) delete walked.default;
  schemas[name] = walked;
  return { $ref: `#/components/schemas/${name}` } as T;
}

import { toOpenAPISchema } from "@elysiajs/openapi/openapi";
import type { AnyElysia } from "elysia";
import { INFO, servers } from "../openapi/description.ts";
import { OPENAPI_VERSION } from "../openapi/document.ts";
import { COMPONENT } from "../schemas.ts";
import { VERSION } from "../version.ts";
import { WORKSPACE_PREFIX } from "./kit.ts";

export const WORKSPACE_SPEC_PATH = `${WORKSPACE_PREFIX}/openapi.json`;

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch"];

/**
 * The workspace's own OpenAPI document: the generator's paths with every named schema moved to
 * `components.schemas` behind a `$ref`, the statuses every operation can answer, and the cookie.
 */
export function buildWorkspaceDocument(app: AnyElysia, basePath = ""): Json {
  const generated = toOpenAPISchema(app, undefined, undefined, undefined, OPENAPI_VERSION);
  const paths = markedEnums(constsAsEnums(JSON.parse(JSON.stringify(generated.paths)))) as Record<
    string,
    Record<string, Json>
  >;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses = (op.responses ?? {}) as Record<string, Json>;
      // An operation taking input or a session answers 400 for U+0000 in any input
      // (server/no-nul.ts) and for a query parameter given twice (server/query-once.ts).
      const takesInput = ((op.parameters as unknown[] | undefined)?.length ?? 0) > 0 || op.requestBody;
      const signedIn = ((op.security as unknown[] | undefined)?.length ?? 0) > 0;
      // As on /api/v1 (server/openapi/document.ts): a wrong method, the request caps, and a body's
      // deadline, size and media type.
      for (const status of [
        ...(takesInput || signedIn ? [400] : []),
        ...(method === "get" ? [] : [403]),
        405,
        414,
        431,
        500,
        ...(op.requestBody ? [408, 413, 415] : []),
      ]) {
        responses[status] ??= { description: `Status ${status}`, content: errorContent };
      }
      responses[405] = { ...responses[405], headers: ALLOW_HEADER };
      for (const [status, response] of Object.entries(responses)) {
        if (status === "204") delete response.content;
        if (Number(status) >= 400 || /^Response for status/.test(`${response.description ?? ""}`))
          response.description = STATUS_TEXT[Number(status)] ?? response.description;
      }
    }
  }
  const schemas: Record<string, unknown> = {};
  const finished = toRefs(paths, schemas);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Parlance workspace API",
      version: VERSION,
      contact: INFO.contact,
      license: INFO.license,
      description:
        "The API people use (through the browser workspace or any client): sessions, members, " +
        "records. Authenticated by the `parlance_session` cookie; every state-changing request " +
        "must come from the server's own origin (Origin or Sec-Fetch-Site). Errors are the Error object.",
    },
    servers: servers(basePath),
    paths: finished,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "parlance_session" },
      },
    },
  };
}

/**
 * The generator writes one enum two ways (an `enum`, or an `anyOf` of `const`s inside a nullable
 * union); one form keeps a named component the same wherever it is used.
 */
function constsAsEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(constsAsEnums);
  if (!node || typeof node !== "object") return node;
  const object = node as Json;
  const options = object.anyOf;
  if (
    Array.isArray(options) &&
    options.length > 0 &&
    options.every((o) => o && typeof o === "object" && "const" in o && (o as Json).type === "string")
  ) {
    const { anyOf: _, ...rest } = object;
    return { ...rest, type: "string", enum: options.map((o) => (o as Json).const) };
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, constsAsEnums(v)]));
}

/** Where the generator dropped a named enum's mark (inside nullable unions), the same values get it back. */
function markedEnums(root: unknown): unknown {
  const names = new Map<string, string>();
  const collect = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const o = node as Json;
    if (Array.isArray(o.enum) && typeof o[COMPONENT] === "string")
      names.set(JSON.stringify(o.enum), o[COMPONENT]);
    for (const child of Object.values(o)) collect(child);
  };
  const mark = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(mark);
    if (!node || typeof node !== "object") return node;
    const o = Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, mark(v)]));
    const name = Array.isArray(o.enum) ? names.get(JSON.stringify(o.enum)) : undefined;
    if (name && o[COMPONENT] === undefined) o[COMPONENT] = name;
    return o;
  };
  collect(root);
  return mark(root);
}

/**
 * Replaces every schema marked as a component with a `$ref`, collecting the components (the first
 * use defines it). A use with a description of its own keeps it beside the `$ref`, as OpenAPI 3.1
 * allows: route files may describe a field that holds a named schema.
 */
function toRefs(node: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => toRefs(n, schemas));
  if (!node || typeof node !== "object") return node;
  const { [COMPONENT]: name, ...rest } = node as Json;
  const walked = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toRefs(v, schemas)]));
  if (typeof name !== "string") return walked;
  // A named enum is a type, used by fields that may each have their own default: it has none.
  if ("enum" in walked) delete walked.default;
  schemas[name] ??= walked;
  const ref: Json = { $ref: `#/components/schemas/${name}` };
  const description = walked.description;
  if (description !== undefined && description !== (schemas[name] as Json).description)
    ref.description = description;
  return ref;
}

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

const ALLOW_HEADER = {
  Allow: { description: "The methods this path takes", required: true, schema: { type: "string" } },
};

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid input",
  401: "Not signed in (or the session ended)",
  402: "Translation quota of the organization exceeded; nothing was written",
  403: "Not allowed: the role does not allow it, or a cross-origin request",
  404: "Not found, or not in an organization of yours",
  405: "This path does not take that method; Allow lists the ones it takes",
  408: "The request body did not arrive in time (60 seconds)",
  409: "Conflict",
  412: "The record changed since the version given",
  413: "Payload too large",
  414: "The request URI (its query string) is too long",
  415: "Unsupported media type: send the body as JSON",
  429: "Too many attempts",
  431: "Request header fields too large",
  500: "Internal error: a bug in Parlance",
};

/**
 * Checks an answer of the server against its own OpenAPI document, with ajv: the status is one the
 * operation declares, the media type one it lists, the body matches that schema, and every header
 * it declares required is there with a well-formed value. Objects are read closed: a field the
 * document does not name is a mismatch too, so nothing leaks unannounced.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { DOCS_PATH, SPEC_PATH } from "../../server/openapi/docs-page.ts";

type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the document is walked structurally
type Doc = any;

const BASE = "https://parlance.invalid/openapi.json";
const METHODS = ["get", "put", "post", "delete", "patch"];
/** Answers a route that is in no operation can give: the router's 404 and the global limits. */
const NO_OPERATION_STATUSES = new Set([404, 413, 414, 429, 431, 500, 503]);

/** JSON pointer segment (RFC 6901). */
const seg = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** Every object schema that leaves additional properties open is closed (see the file comment). */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== "object") return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)])) as Json;
  if (out.type === "object" && out.properties && !("additionalProperties" in out)) {
    out.additionalProperties = false;
  }
  return out;
}

export interface Conformance {
  /** The mismatches of `response` to `request` (empty when it conforms). */
  check(request: Request, response: Response): Promise<string[]>;
}

export function createConformance(document: Doc): Conformance {
  const doc = closed(structuredClone(document)) as Doc;
  // What an unknown route answers: the Error object (checked like any declared response).
  const unknownRoute = {
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  doc["x-unknown-route"] = unknownRoute;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: BASE });
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let v = validators.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `${BASE}#${pointer}` });
      validators.set(pointer, v);
    }
    return v;
  };
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== "string") return node;
    return ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<Doc>((at, key) => at[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  };

  async function checkAgainst(
    pointer: string,
    declared: Json,
    response: Response,
    isHead: boolean,
  ): Promise<string[]> {
    const problems: string[] = [];
    const text = await response.clone().text();
    const content = declared.content as Record<string, Json> | undefined;
    const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!content) {
      if (text !== "") problems.push(`no body is declared, but one came (${type || "no content type"})`);
    } else if (!isHead) {
      if (!(type in content)) {
        problems.push(`content type ${type || "(none)"} is not one of ${Object.keys(content).join(", ")}`);
      } else {
        let body: unknown = text;
        if (type === "application/json") {
          try {
            body = JSON.parse(text);
          } catch {
            problems.push(`the body is not JSON: ${text.slice(0, 200)}`);
          }
        }
        const validate = validatorAt(`${pointer}/content/${seg(type)}/schema`);
        if (!validate(body)) {
          for (const e of validate.errors ?? []) {
            problems.push(`body${e.instancePath || ""} ${e.message} ${JSON.stringify(e.params)}`);
          }
        }
      }
    }
    for (const [name, ref] of Object.entries((declared.headers ?? {}) as Record<string, Json>)) {
      const header = resolve(ref);
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      const schema = header.schema as Json;
      if (schema.type === "integer" && !/^\d+$/.test(value)) {
        problems.push(`header ${name}: ${JSON.stringify(value)} is not a non-negative integer`);
      }
    }
    return problems;
  }

  return {
    async check(request, response) {
      const url = new URL(request.url);
      let path = url.pathname;
      if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
      const isHead = request.method === "HEAD";
      const method = isHead ? "get" : request.method.toLowerCase();
      const status = response.status;
      const where = `${request.method} ${url.pathname}${url.search} → ${status}`;
      const match = templates.find((t) => t.regex.test(path));
      if (!match) {
        // The document and its page are not operations of the API; the rest is unknown routes.
        if (path === SPEC_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`)) return [];
        if (!NO_OPERATION_STATUSES.has(status)) return [`${where}: no operation has this path`];
        const problems = await checkAgainst("/x-unknown-route", unknownRoute, response, isHead);
        return problems.map((p) => `${where} (no operation): ${p}`);
      }
      const item = doc.paths[match.template] as Record<string, Json>;
      let opMethod = method;
      if (!item[method]) {
        // A method the path does not take: the 405 every operation of the path declares.
        // (or, first, a limit every request meets), as every operation of the path declares it.
        if (status !== 405 && (status === 404 || !NO_OPERATION_STATUSES.has(status))) {
          return [`${where}: ${match.template} has no ${method} operation`];
        }
        opMethod = METHODS.find((m) => item[m]) ?? "get";
      }
      const op = item[opMethod] as Json;
      const name = `${opMethod.toUpperCase()} ${match.template} (${op.operationId})`;
      const responses = op.responses as Record<string, Json>;
      const declared = responses[String(status)];
      if (!declared) return [`${where}: status ${status} is not declared for ${name}`];
      const pointer = `/paths/${seg(match.template)}/${opMethod}/responses/${status}`;
      const problems = await checkAgainst(pointer, declared, response, isHead);
      return problems.map((p) => `${where}: ${name}: ${p}`);
    },
  };
}

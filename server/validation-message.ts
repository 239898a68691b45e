import type { ValidationError } from "elysia";

const PLACE: Record<string, string> = {
  query: "query parameter",
  body: "body field",
  params: "path parameter",
};

interface Problem {
  path?: string;
  summary?: string;
  message?: string;
  value?: unknown;
  schema?: { enum?: unknown[]; anyOf?: { const?: unknown }[] };
}

/** The values a field of fixed choices takes (an enum, or a union of literals), else null. */
function choicesOf(problem: Problem | undefined): unknown[] | null {
  const schema = problem?.schema;
  if (Array.isArray(schema?.enum)) return schema.enum;
  const literals = schema?.anyOf?.map((member) => member.const);
  return literals && literals.length > 0 && literals.every((c) => c !== undefined) ? literals : null;
}

const fieldOf = (p: Problem | undefined) => (p?.path ?? "").replace(/^\//, "").replace(/\//g, ".");

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}

/** What is wrong with one field, in words for the API's user rather than the validator's. */
function reasonOf(problem: Problem | undefined): string {
  // "Expected kind 'UnionEnum'", "should be one of: 'string', 'string'" → the values it takes.
  const choices = choicesOf(problem);
  if (choices && problem?.value !== undefined)
    return `must be one of ${choices.join(", ")}, not ${describeValue(problem.value)}`;
  let reason = problem?.summary ?? problem?.message ?? "is invalid";
  // A union of one type in two spellings (Elysia's numeric query types) reads "one of: 'integer', 'integer'".
  const oneOf = /^(.* should be) one of: (.+)$/.exec(reason);
  const kinds = new Set(oneOf?.[2]?.split(/,\s*/));
  if (oneOf && kinds.size === 1) reason = `${oneOf[1]} ${[...kinds][0]?.replace(/'/g, "")}`;
  // "Expected property 'content' to be string but found: undefined" → what to send instead.
  const typed = /^Expected\s+property '.*' to be (\w+) but found: /.exec(reason);
  if (typed) {
    reason =
      problem?.value === undefined
        ? `is required (a ${typed[1]})`
        : `must be a ${typed[1]}, not ${describeValue(problem.value)}`;
  }
  return reason;
}

/** One readable sentence naming the field, never the framework's JSON dump (CONTRACT §5). */
export function describeValidation(error: ValidationError): string {
  const first = error.all?.[0] as Problem | undefined;
  const field = fieldOf(first);
  const place = PLACE[error.type] ?? error.type;
  const reason = reasonOf(first);
  if (field === "")
    return error.type === "body" ? `Invalid request body: ${reason}` : `Invalid ${place}: ${reason}`;
  return `Invalid ${place} ${field}: ${reason}`;
}

/**
 * Development-mode details of a validation failure: every problem (up to five), each naming its
 * field, what is wrong and what was sent.
 */
export function validationDetails(error: ValidationError): string {
  const place = PLACE[error.type] ?? error.type;
  const all = (error.all ?? []) as Problem[];
  const problems = all.slice(0, 5).map((p) => {
    const field = fieldOf(p);
    const sent = p.value === undefined ? "nothing" : describeValue(p.value);
    return `${field === "" ? "the request body" : `${place} ${field}`} ${reasonOf(p)} (sent: ${sent})`;
  });
  if (all.length > 5) problems.push(`and ${all.length - 5} more`);
  return `${problems.join("; ")}. The operation is described in /api/v1/openapi.json.`;
}

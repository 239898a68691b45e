import type { ValidationError } from "elysia";

const PLACE: Record<string, string> = {
  query: "query parameter",
  body: "body field",
  params: "path parameter",
};

/** One readable sentence naming the field, never the framework's JSON dump (CONTRACT §5). */
export function describeValidation(error: ValidationError): string {
  const first = error.all?.[0] as { path?: string; summary?: string; message?: string } | undefined;
  const field = (first?.path ?? "").replace(/^\//, "").replace(/\//g, ".");
  const place = PLACE[error.type] ?? error.type;
  let reason = first?.summary ?? first?.message ?? "is invalid";
  // A union of one type in two spellings (Elysia's numeric query types) reads "one of: 'integer', 'integer'".
  const oneOf = /^(.* should be) one of: (.+)$/.exec(reason);
  const kinds = new Set(oneOf?.[2]?.split(/,\s*/));
  if (oneOf && kinds.size === 1) reason = `${oneOf[1]} ${[...kinds][0]?.replace(/'/g, "")}`;
  if (field === "")
    return error.type === "body" ? `Invalid request body: ${reason}` : `Invalid ${place}: ${reason}`;
  return `Invalid ${place} ${field}: ${reason}`;
}

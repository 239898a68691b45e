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
  const reason = first?.summary ?? first?.message ?? "is invalid";
  if (field === "")
    return error.type === "body" ? `Invalid request body: ${reason}` : `Invalid ${place}: ${reason}`;
  return `Invalid ${place} ${field}: ${reason}`;
}

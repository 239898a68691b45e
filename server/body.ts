import { invalid, payloadTooLarge } from "../core/errors.ts";

/** CONTRACT §6: a request body past 13 MiB is refused without being read whole. */
export const MAX_BODY_BYTES = 13 * 1024 * 1024;

/** Reads the body as UTF-8 text, stopping (413) as soon as it passes `limit` bytes. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw payloadTooLarge();
  if (declared !== null) return request.text();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * A JSON body read but not yet parsed. Parsing waits for the route's guard, so a caller without
 * the scope gets its 403 rather than a 400 about the body (docs/decisions.md, order of checks).
 */
export class UnparsedJson {
  constructor(readonly text: string) {}
  parse(): unknown {
    try {
      return JSON.parse(this.text);
    } catch {
      throw invalid("Request body is not valid JSON");
    }
  }
}

/** The parsed body, for a value the body hook produced (JSON parsed now; anything else as is). */
export const parsedBody = (body: unknown): unknown => (body instanceof UnparsedJson ? body.parse() : body);

/** Reads JSON and form bodies with the size limit; JSON is parsed later, by `parsedBody`. */
export async function readBody(request: Request, contentType: string): Promise<unknown> {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const text = await readBodyText(request);
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (type === "application/json" || type.endsWith("+json")) return new UnparsedJson(text);
  return text;
}

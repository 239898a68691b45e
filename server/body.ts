import { isUtf8 } from "node:buffer";
import { invalid, PAYLOAD_TOO_LARGE, ParlanceError } from "../core/errors.ts";
import { readJson } from "../core/json.ts";

/** CONTRACT §6: a request body past 13 MiB is refused without being read whole. */
export const MAX_BODY_BYTES = 13 * 1024 * 1024;
/** The token endpoint's callers are anonymous: a grant is a few hundred bytes. */
export const MAX_TOKEN_BODY_BYTES = 8 * 1024;
/** A body must arrive within this time of its first read (a slow sender holds memory and a socket). */
export const BODY_DEADLINE_MS = 60_000;
/** Request bodies are flat records; a deeper one is a mistake or an attack. */
export const MAX_BODY_DEPTH = 64;

const bytes = (n: number) => `${n.toLocaleString("en-US")} bytes`;

/**
 * 413 with API.md's exact message; the figures go to `details` (development mode), since the
 * message text is fixed (docs/decisions.md, "Figures of a 413").
 */
function tooLarge(what: string, limit: number): ParlanceError {
  return new ParlanceError("payload_too_large", PAYLOAD_TOO_LARGE, `${what}; the limit is ${bytes(limit)}`);
}

/**
 * Reads the body as strict UTF-8 bytes, stopping (413) as soon as it passes `limit` bytes: a 1 GB
 * body costs at most `limit` bytes of memory, whatever its Content-Length says or omits. A declared
 * length sizes one buffer, so a 12 MB body is held once rather than as chunks and then their copy.
 * `whole`: the listener gathers a body of declared length into one buffer of its own as it arrives
 * (Host.buffersBodies), and that buffer is taken instead (`readWhole`).
 */
export async function readBodyBytes(
  request: Request,
  limit = MAX_BODY_BYTES,
  deadlineMs = BODY_DEADLINE_MS,
  whole = false,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null;
  if (length !== null && length > limit) {
    throw tooLarge(`The request body is ${bytes(length)} (Content-Length)`, limit);
  }
  if (!request.body) return new Uint8Array(0);
  const body =
    whole && length !== null
      ? await readWhole(request, limit, deadlineMs)
      : await readChunks(request.body.getReader(), length, limit, deadlineMs);
  if (!isUtf8(body)) throw invalid(`Request body is not valid UTF-8 (at byte ${firstInvalidUtf8(body)})`);
  return body;
}

/** The body from its stream's chunks, copied into one buffer as they arrive. */
async function readChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  length: number | null,
  limit: number,
  deadlineMs: number,
): Promise<Uint8Array> {
  let chunks: Uint8Array[] = [];
  let all: Uint8Array | null = null;
  let total = 0;
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const { done, value } = await readBefore(reader, deadline, deadlineMs);
    if (done) break;
    if (total + value.byteLength > limit) {
      await reader.cancel().catch(() => {});
      throw passedLimit(limit);
    }
    if (all && total + value.byteLength <= all.byteLength) all.set(value, total);
    else chunks.push(value);
    total += value.byteLength;
    // The declared length is trusted for one buffer only once a quarter of it has arrived, so a
    // sender that declares 13 MiB and sends nothing makes the server hold nothing.
    if (!all && length !== null && total * 4 >= length) {
      all = join(chunks, Math.max(length, total));
      chunks = [];
    }
  }
  // Chunks past the declared length, or no length declared: one buffer of what arrived.
  if (chunks.length > 0) all = join(all ? [all.subarray(0, total - sum(chunks)), ...chunks] : chunks, total);
  return (all ?? new Uint8Array(0)).subarray(0, total);
}

/**
 * The body as the listener gathered it, in one buffer. Bun hands a body's stream over in chunks of
 * 128 KiB, each a buffer of its own (about 90 for a 12 MB push): once copied they are garbage that
 * outlives the young generation while the body arrives, and they stayed resident through the
 * request until a full collection (docs/benchmarks.md, "Push memory, seventh pass"). The
 * listener's buffer holds only what has arrived and never more than the declared length, which
 * the listener enforces, so the limit and the deadline hold as for chunks; a sender still sending
 * at the deadline gets its 408 and the buffer goes when the connection ends.
 */
async function readWhole(request: Request, limit: number, deadlineMs: number): Promise<Uint8Array> {
  const read = request.arrayBuffer();
  read.catch(() => {}); // settled after a 408 too, when the connection ends
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(lateBody(deadlineMs)), deadlineMs);
  });
  try {
    const body = new Uint8Array(await Promise.race([read, late]));
    if (body.byteLength > limit) throw passedLimit(limit);
    return body;
  } finally {
    clearTimeout(timer);
  }
}

const passedLimit = (limit: number) =>
  tooLarge(`The request body passed ${bytes(limit)} while it was read`, limit);

const lateBody = (deadlineMs: number) =>
  new ParlanceError("request_timeout", `The request body did not arrive within ${deadlineMs / 1000} seconds`);

const sum = (chunks: Uint8Array[]) => chunks.reduce((n, c) => n + c.byteLength, 0);

/** The chunks, in order, at the start of one buffer of `size` bytes. */
function join(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

// The default TextDecoder drops a leading byte order mark, as the body's readers expect.
const utf8 = new TextDecoder("utf-8");

/** The body as text (bytes checked by `readBodyBytes`). */
export const bodyText = (body: Uint8Array): string => utf8.decode(body);

/** `readBodyBytes`, as text. */
export async function readBodyText(
  request: Request,
  limit = MAX_BODY_BYTES,
  deadlineMs = BODY_DEADLINE_MS,
): Promise<string> {
  return bodyText(await readBodyBytes(request, limit, deadlineMs));
}

/** The next chunk, or 408 (and the stream cancelled) once `deadline` (epoch ms) has passed. */
async function readBefore(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
  deadlineMs: number,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        // Reject first: cancelling settles the pending read as "done", which must not win the race.
        reject(lateBody(deadlineMs));
        reader.cancel().catch(() => {});
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([reader.read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i] as number;
    const n =
      c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0) return i;
    const end = i + n;
    if (end > b.length) return i;
    const text = new TextDecoder("utf-8", { fatal: true });
    try {
      text.decode(b.subarray(i, end));
    } catch {
      return i;
    }
    i = end;
  }
  return b.length;
}

/**
 * A JSON body read but not yet parsed. Parsing waits for the route's guard, so a caller without
 * the scope gets its 403 rather than a 400 about the body (docs/decisions.md, order of checks).
 */
export class UnparsedJson {
  constructor(readonly bytes: Uint8Array) {}
  get text(): string {
    return bodyText(this.bytes);
  }
  parse(): unknown {
    return parseJsonBody(this.text);
  }
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") throw invalid("Request body is empty; send a JSON object");
  return readJson(text, { what: "Request body", maxDepth: MAX_BODY_DEPTH });
}

/**
 * A body of a media type the route does not take, or compressed with a content coding Parlance
 * does not decode (`coding`): 415, once the guard has let the caller in.
 */
export class UnsupportedBody {
  constructor(
    readonly mediaType: string,
    readonly coding?: string,
  ) {}
}

/** A form body (the token endpoint's), every parameter with all the values it was given. */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}
}

export const unsupportedMediaType = (got: string, expected: string) =>
  new ParlanceError(
    "unsupported_media_type",
    got === ""
      ? `Send the body with Content-Type: ${expected} (the request had no Content-Type)`
      : `Content-Type ${got} is not accepted here; send ${expected}`,
  );

/** The 415 for a body a route does not take: its coding first, else its media type. */
export const unsupportedBody = (body: UnsupportedBody, expected: string) =>
  body.coding === undefined
    ? unsupportedMediaType(body.mediaType, expected)
    : new ParlanceError(
        "unsupported_media_type",
        `Content-Encoding ${body.coding} is not accepted here; send the body uncompressed`,
      );

/**
 * The parsed JSON body, for a value the body hook produced. Anything but JSON is 415: only the
 * token endpoint takes forms, and it reads its body itself.
 */
export function parsedBody(body: unknown): unknown {
  if (body instanceof UnparsedJson) return requireObject(body.parse());
  if (body instanceof UnsupportedBody) throw unsupportedBody(body, "application/json");
  if (body instanceof FormBody)
    throw unsupportedMediaType("application/x-www-form-urlencoded", "application/json");
  return body;
}

/**
 * Every JSON body Parlance takes is an object. The schemas alone let an array through where all
 * members are optional (`PATCH …/me` with `[]` answered 200), so the shape is checked here.
 */
function requireObject(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  throw invalid(`The request body must be a JSON object, not ${kind}`);
}

/** The media type of a Content-Type header, lower case, without parameters. */
export const mediaTypeOf = (contentType: string) => contentType.split(";")[0]?.trim().toLowerCase() ?? "";

const isJson = (type: string) => type === "application/json" || /^application\/[^/]+\+json$/.test(type);

/**
 * Reads any body with its size limit; JSON is parsed later (`parsedBody`), forms are kept whole
 * (repeated parameters stay visible), other media types and content codings are refused by the
 * route (415). `whole`: as `readBodyBytes`.
 */
export async function readBody(
  request: Request,
  contentType: string,
  limit = MAX_BODY_BYTES,
  whole = false,
): Promise<unknown> {
  const type = mediaTypeOf(contentType);
  // A compressed body is not read: gzip bytes would only be refused as text that is not UTF-8.
  const coding = request.headers.get("content-encoding")?.trim().toLowerCase();
  if (coding && coding !== "identity") return new UnsupportedBody(type, coding.slice(0, 40));
  const body = await readBodyBytes(request, limit, BODY_DEADLINE_MS, whole);
  if (type === "application/x-www-form-urlencoded") return new FormBody(new URLSearchParams(bodyText(body)));
  if (isJson(type)) return new UnparsedJson(body);
  // No body at all is no media type: routes that need one say what is missing (400).
  if (type === "" && (body.byteLength === 0 || (body.byteLength <= 3 && bodyText(body) === "")))
    return undefined;
  return new UnsupportedBody(type);
}

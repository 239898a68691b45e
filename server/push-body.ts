import { lineAndColumn, readJson } from "../core/json.ts";
import {
  decodeString,
  hex4,
  JsonSyntax,
  type StringSpan,
  scanString,
  utf16Length,
} from "../core/json-bytes.ts";
import { nextTurn, SLICE_MS } from "../core/next-turn.ts";
import { bodyText, MAX_BODY_DEPTH, parsedBody, parseJsonBody, UnparsedJson } from "./body.ts";

/**
 * A push body holds its file as one JSON string of up to 12 MB (API.md). Read as text, it would be
 * held three times before its rows are read (the body's text, the decoded string, the bytes the
 * job stores); here it stays where it arrived: the string is decoded in place in the body's bytes,
 * and the rest of the body is read as any body is, with `""` in its place. The route validates that
 * object (so `content` is checked to be a string) and takes the bytes from `pushContentOf`.
 */
const contents = new WeakMap<Request, Uint8Array>();

/** The push's content bytes, when its body held `content` as a string. */
export const pushContentOf = (request: Request): Uint8Array | undefined => contents.get(request);

/**
 * A body at least this large is worth a full collection before its content is read and again,
 * released, before the 202 (Host.returnFreeMemory): the first returns the listener's buffers that
 * gathered it, the second its 12 MB before the import builds its own working set. A smaller one is left to the collector's own pace, so a CI fleet's small pushes
 * do not each pay for a collection of the whole heap.
 */
export const COLLECT_AFTER_BODY_BYTES = 1024 * 1024;

/**
 * Frees the body a push's content lies in, once the push is answered: the store keeps its own copy
 * (JobStore.create) and the rows handed to the job are strings of their own. Only a collection of
 * the old generation would free it otherwise, and that waits for the import to end: a 12 MB
 * body stayed resident through the whole job, on top of its peak (docs/benchmarks.md, "Push
 * memory, sixth pass"). Detaching the buffer releases its memory at once. Returns the size of the
 * body released, 0 when there was none.
 */
export function releasePushContent(request: Request): number {
  const bytes = contents.get(request);
  if (!bytes) return 0;
  contents.delete(request);
  const size = bytes.buffer.byteLength;
  (bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
  return size;
}

/**
 * `parsedBody` for a push: the object, with the content's bytes kept aside for the handler. The
 * passes over the 12 MB string (its scan, its decoding) give the event loop a turn every SLICE_MS.
 */
export async function parsedPushBody(body: unknown, request: Request): Promise<unknown> {
  if (!(body instanceof UnparsedJson)) return parsedBody(body);
  const bytes = body.bytes;
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const at = findContent(bytes, from);
  const end = at < 0 ? -1 : await stringEnd(bytes, at);
  if (end < 0) return parseJsonBody(bodyText(bytes));
  const found: StringSpan = { start: at + 1, end, flags: 0 };
  const before = bodyText(bytes.subarray(0, found.start - 1));
  const text = `${before}""${bodyText(bytes.subarray(found.end + 1))}`;
  // Errors after the string on its line are further right than in `text` by what "" stands for
  // (counted only for an error: it is a pass over the whole content).
  const shift = () => utf16Length(bytes, found.start - 1, found.end + 1) - 2;
  const locate = (offset: number) => {
    const at = lineAndColumn(text, offset);
    const sameLine = text.lastIndexOf("\n", offset - 1) < before.length;
    return offset >= before.length + 2 && sameLine ? { ...at, column: at.column + shift() } : at;
  };
  const parsed = readJson(text, { what: "Request body", maxDepth: MAX_BODY_DEPTH, locate });
  contents.set(request, await decodeInPlace(bytes, found));
  return parsed;
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The offset of the opening quote of the first top-level member `content` whose value is a string,
 * found by a light pass over the members before it; -1 when there is none or the body is not
 * well-formed that far (then the whole body is read as text, and its error told as usual).
 */
function findContent(bytes: Uint8Array, from: number): number {
  const span: StringSpan = { start: 0, end: 0, flags: 0 };
  const skipSpace = (i: number) => {
    while (isSpace(bytes[i])) i++;
    return i;
  };
  try {
    let i = skipSpace(from);
    if (bytes[i] !== 0x7b) return -1;
    for (i = skipSpace(i + 1); bytes[i] === 0x22; i = skipSpace(i + 1)) {
      scanString(bytes, i, span);
      const name = decodeString(bytes, span);
      i = skipSpace(span.end + 1);
      if (bytes[i] !== 0x3a) return -1;
      i = skipSpace(i + 1);
      if (name === "content" && bytes[i] === 0x22) return i;
      i = skipSpace(skipValue(bytes, i, span));
      if (bytes[i] !== 0x2c) return -1;
    }
    return -1;
  } catch (e) {
    if (e instanceof JsonSyntax) return -1;
    throw e;
  }
}

const isHex = (b: number | undefined) =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
/** The characters a backslash may escape besides `u` (RFC 8259 §7). */
const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** Bytes scanned between two looks at the clock. */
const BYTES_PER_LOOK = 1 << 16;

/**
 * The offset of the closing quote of the string opening at `at`, or -1 where `scanString` would
 * refuse it (unterminated, a raw control character, an invalid escape): the same scan, in slices.
 */
async function stringEnd(bytes: Uint8Array, at: number): Promise<number> {
  const n = bytes.length;
  let i = at + 1;
  let since = performance.now();
  for (;;) {
    const found = scanSlice(bytes, i, Math.min(i + BYTES_PER_LOOK, n));
    if (found >= -1) return found;
    i = -2 - found;
    if (i >= n) return -1;
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/**
 * One slice of `stringEnd`, from `i` to `stop`: the closing quote's offset, -1 for a string
 * `scanString` refuses, or -2 - where to go on. A function of its own: the same loop written in
 * the async function ran unoptimized, 60–150 ms of a 12 MB push's request in the server against
 * 40–50 ms here. (A regular expression over Latin-1 slices took 20–35 ms, but its slices' strings
 * were 20 MiB more at the request's peak.)
 */
function scanSlice(bytes: Uint8Array, i: number, stop: number): number {
  while (i < stop) {
    const b = bytes[i] as number;
    if (b > 0x5c || (b > 0x22 && b < 0x5c) || b === 0x20 || b === 0x21) {
      i++;
      continue;
    }
    if (b === 0x22) return i;
    if (b < 0x20) return -1;
    const e = bytes[i + 1] ?? 0;
    if (e === 0x75) {
      if (!(isHex(bytes[i + 2]) && isHex(bytes[i + 3]) && isHex(bytes[i + 4]) && isHex(bytes[i + 5])))
        return -1;
    } else if (!ESCAPABLE.has(e)) return -1;
    // The escaped character (and a `\u`'s digits) are plain: go on after it.
    i += 2;
  }
  return -2 - i;
}

/** The offset just past the value at `i`: strings and brackets matched, nothing else checked. */
function skipValue(bytes: Uint8Array, i: number, span: StringSpan): number {
  const c = bytes[i];
  if (c === 0x22) {
    scanString(bytes, i, span);
    return span.end + 1;
  }
  if (c === 0x7b || c === 0x5b) {
    for (let depth = 0; i < bytes.length; i++) {
      const d = bytes[i];
      if (d === 0x22) {
        scanString(bytes, i, span);
        i = span.end;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
    }
    return i;
  }
  while (i < bytes.length && !isSpace(bytes[i]) && ![0x2c, 0x7d, 0x5d].includes(bytes[i] as number)) i++;
  return i;
}

const SIMPLE: Record<number, number> = { 98: 0x08, 102: 0x0c, 110: 0x0a, 114: 0x0d, 116: 0x09 };
/** Escapes decoded between two looks at the clock. */
const ESCAPES_PER_LOOK = 4096;

/**
 * Decodes a scanned JSON string where it lies and returns its UTF-8 bytes: every escape is at
 * least as long as what it stands for, so the text never overtakes the reading. A lone surrogate
 * (`\uD800`) becomes its three WTF-8 bytes, which the content's checks then refuse by name.
 */
async function decodeInPlace(bytes: Uint8Array, s: StringSpan): Promise<Uint8Array> {
  const at = { w: s.start, r: s.start };
  let since = performance.now();
  while (decodeEscapes(bytes, s.end, at, ESCAPES_PER_LOOK)) {
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
  if (s.end > at.r) {
    bytes.copyWithin(at.w, at.r, s.end);
    at.w += s.end - at.r;
  }
  return bytes.subarray(s.start, at.w);
}

/**
 * Decodes up to `most` escapes before `end`, from `at.r` (read) to `at.w` (write); true when
 * escapes may remain. A function of its own, not the loop of the async one above: that loop ran
 * unoptimized, as `stringEnd`'s did.
 */
function decodeEscapes(bytes: Uint8Array, end: number, at: { w: number; r: number }, most: number): boolean {
  let { w, r } = at;
  let n = 0;
  let i = bytes.indexOf(0x5c, r);
  for (; i !== -1 && i < end && n < most; i = bytes.indexOf(0x5c, r), n++) {
    if (i > r) {
      bytes.copyWithin(w, r, i);
      w += i - r;
    }
    const e = bytes[i + 1] as number;
    if (e !== 0x75) {
      bytes[w++] = SIMPLE[e] ?? e;
      r = i + 2;
      continue;
    }
    let c = hex4(bytes, i + 2);
    r = i + 6;
    if (c >= 0xd800 && c <= 0xdbff && bytes[r] === 0x5c && bytes[r + 1] === 0x75) {
      const low = hex4(bytes, r + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        r += 6;
      }
    }
    if (c < 0x80) bytes[w++] = c;
    else if (c < 0x800) {
      bytes[w++] = 0xc0 | (c >> 6);
      bytes[w++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      bytes[w++] = 0xe0 | (c >> 12);
      bytes[w++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[w++] = 0x80 | (c & 0x3f);
    } else {
      bytes[w++] = 0xf0 | (c >> 18);
      bytes[w++] = 0x80 | ((c >> 12) & 0x3f);
      bytes[w++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[w++] = 0x80 | (c & 0x3f);
    }
  }
  at.w = w;
  at.r = r;
  return i !== -1 && i < end;
}

import { lineAndColumn, readJson } from "../core/json.ts";
import {
  decodeString,
  hex4,
  JsonSyntax,
  type StringSpan,
  scanString,
  utf16Length,
} from "../core/json-bytes.ts";
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

/** `parsedBody` for a push: the object, with the content's bytes kept aside for the handler. */
export function parsedPushBody(body: unknown, request: Request): unknown {
  if (!(body instanceof UnparsedJson)) return parsedBody(body);
  const bytes = body.bytes;
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const found = findContent(bytes, from);
  if (!found) return parseJsonBody(bodyText(bytes));
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
  contents.set(request, decodeInPlace(bytes, found));
  return parsed;
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The span of the first top-level member `content` whose value is a string, found by a light
 * pass over the members before it; null when there is none or the body is not well-formed that
 * far (then the whole body is read as text, and its error told as usual).
 */
function findContent(bytes: Uint8Array, from: number): StringSpan | null {
  const span: StringSpan = { start: 0, end: 0, flags: 0 };
  const skipSpace = (i: number) => {
    while (isSpace(bytes[i])) i++;
    return i;
  };
  try {
    let i = skipSpace(from);
    if (bytes[i] !== 0x7b) return null;
    for (i = skipSpace(i + 1); bytes[i] === 0x22; i = skipSpace(i + 1)) {
      scanString(bytes, i, span);
      const name = decodeString(bytes, span);
      i = skipSpace(span.end + 1);
      if (bytes[i] !== 0x3a) return null;
      i = skipSpace(i + 1);
      if (name === "content" && bytes[i] === 0x22) {
        scanString(bytes, i, span);
        return span;
      }
      i = skipSpace(skipValue(bytes, i, span));
      if (bytes[i] !== 0x2c) return null;
    }
    return null;
  } catch (e) {
    if (e instanceof JsonSyntax) return null;
    throw e;
  }
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

/**
 * Decodes a scanned JSON string where it lies and returns its UTF-8 bytes: every escape is at
 * least as long as what it stands for, so the text never overtakes the reading. A lone surrogate
 * (`\uD800`) becomes its three WTF-8 bytes, which the content's checks then refuse by name.
 */
function decodeInPlace(bytes: Uint8Array, s: StringSpan): Uint8Array {
  let w = s.start;
  let r = s.start;
  for (let i = bytes.indexOf(0x5c, r); i !== -1 && i < s.end; i = bytes.indexOf(0x5c, r)) {
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
  if (s.end > r) {
    bytes.copyWithin(w, r, s.end);
    w += s.end - r;
  }
  return bytes.subarray(s.start, w);
}

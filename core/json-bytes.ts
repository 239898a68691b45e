/**
 * JSON read from UTF-8 bytes, for texts too large to hold twice (a push's content): what a string
 * spans, its decoded text, a character named for a message, a position as an editor shows it.
 * Bytes may carry lone surrogates encoded as three bytes (WTF-8): a push body's `\uD800` decoded
 * in place (server/push-body.ts) is kept that way so the content's checks can name it.
 */

export class JsonSyntax extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

/** What a scanned string holds, beyond its extent. */
export const HAS_ESCAPE = 1;
/** A byte of U+D800–U+DFFF (lone surrogate) or U+FFFE/U+FFFF may be inside: check the decoded text. */
export const MAY_HOLD_SPECIAL = 2;

export interface StringSpan {
  /** First byte after the opening quote. */
  start: number;
  /** Offset of the closing quote. */
  end: number;
  flags: number;
}

const HEX = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

/**
 * The string starting at `at` (its opening quote), checked as RFC 8259 wants it: escapes valid, no
 * raw control character. Errors name the place as `readJson` does (core/json.ts).
 */
export function scanString(bytes: Uint8Array, at: number, out: StringSpan): void {
  const n = bytes.length;
  let i = at + 1;
  let flags = 0;
  let control = -1;
  let badEscape = -1;
  for (;;) {
    if (i >= n) throw new JsonSyntax("unterminated string", at);
    const b = bytes[i] as number;
    if (b === 0x22) break;
    if (b === 0x5c) {
      flags |= HAS_ESCAPE;
      const e = bytes[i + 1] ?? 0;
      if (e === 0x75) {
        if (
          badEscape < 0 &&
          !(
            HEX(bytes[i + 2] ?? 0) &&
            HEX(bytes[i + 3] ?? 0) &&
            HEX(bytes[i + 4] ?? 0) &&
            HEX(bytes[i + 5] ?? 0)
          )
        )
          badEscape = i;
        // \uD800–\uDFFF, \uFFFE, \uFFFF: cheaper to decode than to sort out here.
        const h = bytes[i + 2] ?? 0;
        if (h === 0x64 || h === 0x44 || h === 0x66 || h === 0x46) flags |= MAY_HOLD_SPECIAL;
      } else if (SIMPLE_ESCAPE[e] !== 1 && badEscape < 0) badEscape = i;
      i += e === 0x22 || e === 0x5c ? 2 : 1;
      continue;
    }
    if (b < 0x20) {
      if (control < 0) control = i;
    } else if (b === 0xed || b === 0xef) flags |= MAY_HOLD_SPECIAL;
    i++;
  }
  if (control >= 0)
    throw new JsonSyntax(`${describeAt(bytes, control)} inside a string (escape it)`, control);
  if (badEscape >= 0) throw new JsonSyntax("invalid escape in a string", badEscape);
  out.start = at + 1;
  out.end = i;
  out.flags = flags;
}

// ignoreBOM: a value that starts with U+FEFF keeps it.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Text of bytes that hold no escape; WTF-8 surrogates come back as the lone units they encode. */
export function decodeText(bytes: Uint8Array, start: number, end: number, special = true): string {
  if (!special || !hasSurrogateBytes(bytes, start, end)) return utf8.decode(bytes.subarray(start, end));
  let out = "";
  for (let i = start; i < end; ) {
    const b = bytes[i] as number;
    const len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    if (b === 0xed && (bytes[i + 1] as number) >= 0xa0) {
      out += String.fromCharCode(
        ((b & 0x0f) << 12) | (((bytes[i + 1] as number) & 0x3f) << 6) | ((bytes[i + 2] as number) & 0x3f),
      );
    } else out += utf8.decode(bytes.subarray(i, i + len));
    i += len;
  }
  return out;
}

function hasSurrogateBytes(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = bytes.indexOf(0xed, start); i !== -1 && i < end; i = bytes.indexOf(0xed, i + 1)) {
    if ((bytes[i + 1] as number) >= 0xa0) return true;
  }
  return false;
}

const ESCAPED: Record<number, string> = { 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };

/** Text of a scanned string, escapes decoded. */
export function decodeString(bytes: Uint8Array, s: StringSpan): string {
  const special = (s.flags & MAY_HOLD_SPECIAL) !== 0;
  if ((s.flags & HAS_ESCAPE) === 0) return decodeText(bytes, s.start, s.end, special);
  let out = "";
  let run = s.start;
  for (let i = bytes.indexOf(0x5c, s.start); i !== -1 && i < s.end; i = bytes.indexOf(0x5c, i)) {
    if (i > run) out += decodeText(bytes, run, i, special);
    const e = bytes[i + 1] as number;
    if (e === 0x75) {
      out += String.fromCharCode(hex4(bytes, i + 2));
      i += 6;
    } else {
      out += ESCAPED[e] ?? String.fromCharCode(e);
      i += 2;
    }
    run = i;
  }
  if (s.end > run) out += decodeText(bytes, run, s.end, special);
  return out;
}

export function hex4(bytes: Uint8Array, at: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const b = bytes[at + k] as number;
    v = (v << 4) | (b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x57);
  }
  return v;
}

/** How `readJson` names a character in a message (core/json.ts). */
export const describeChar = (c: string | undefined) =>
  c === undefined
    ? "unexpected end of text"
    : /[\u0000-\u0020\u007f-\u00a0]/.test(c)
      ? `unexpected character U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`
      : `unexpected character ${JSON.stringify(c)}`;

/** The character at `at` named as `describeChar` does: the first UTF-16 unit of its code point. */
export function describeAt(bytes: Uint8Array, at: number): string {
  if (at >= bytes.length) return describeChar(undefined);
  const b = bytes[at] as number;
  const len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  return describeChar(decodeText(bytes, at, Math.min(at + len, bytes.length))[0]);
}

/** Line and column of byte `offset`, counted from byte `from`, as `lineAndColumn` counts text. */
export function bytePosition(
  bytes: Uint8Array,
  from: number,
  offset: number,
): { line: number; column: number } {
  let line = 1;
  let lineStart = from;
  for (let i = bytes.indexOf(0x0a, from); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: utf16Length(bytes, lineStart, offset) + 1 };
}

/** UTF-16 units the UTF-8 bytes decode to: one per lead byte, two for a four-byte sequence. */
export function utf16Length(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (b < 0x80 || b >= 0xc0) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

const encoder = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** UTF-8 of text, lone surrogates kept as WTF-8 (TextEncoder would replace them with U+FFFD). */
export function encodeText(text: string): Uint8Array {
  if (!LONE_SURROGATE.test(text)) return encoder.encode(text);
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i) as number;
    if (c > 0xffff) i++;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

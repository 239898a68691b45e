import type { StringSpan } from "./json-bytes.ts";

// ignoreBOM: a value that starts with U+FEFF keeps it.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
/** A backslash or a C0 control: a string holding one is read byte by byte (core/json-bytes.ts). */
const SPECIAL = /[\\\u0000-\u001f]/g;

/**
 * Strings of a JSON text whose bytes are all ASCII, read from one decoded copy of the text: byte
 * offsets are character offsets, so a string is found by native searches and taken as a slice,
 * where decoding each of 100,000 names and values on its own costs several times more. A string
 * with an escape or a control character is left to the byte reader, which decodes or refuses it.
 */
export class AsciiStrings {
  /** Offset of the next backslash or control character at or after `from`; Infinity past the last. */
  private next = -1;
  private from = 0;

  private constructor(private readonly text: string) {}

  /** Null when any byte is not ASCII. */
  static of(bytes: Uint8Array): AsciiStrings | null {
    return isAscii(bytes) ? new AsciiStrings(utf8.decode(bytes)) : null;
  }

  /**
   * The string whose opening quote is at `at`, into `out` (flags 0), when it holds neither a
   * backslash nor a control character; false otherwise.
   */
  find(at: number, out: StringSpan): boolean {
    const end = this.text.indexOf('"', at + 1);
    if (end === -1 || this.special(at + 1) < end) return false;
    out.start = at + 1;
    out.end = end;
    out.flags = 0;
    return true;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  private special(from: number): number {
    if (from < this.from || from > this.next) {
      SPECIAL.lastIndex = from;
      const m = SPECIAL.exec(this.text);
      this.next = m ? m.index : Number.POSITIVE_INFINITY;
      this.from = from;
    }
    return this.next;
  }
}

/** Whether every byte is below 0x80, four at a time where they are aligned. */
function isAscii(bytes: Uint8Array): boolean {
  const n = bytes.length;
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i++) if ((bytes[i] as number) & 0x80) return false;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, (n - head) >>> 2);
  for (let i = 0; i < words.length; i++) if ((words[i] as number) & 0x80808080) return false;
  for (let i = head + words.length * 4; i < n; i++) if ((bytes[i] as number) & 0x80) return false;
  return true;
}

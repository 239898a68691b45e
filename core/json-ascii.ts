import type { StringSpan } from "./json-bytes.ts";

// ignoreBOM: a value that starts with U+FEFF keeps it.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
/** A backslash or a C0 control: a string holding one is read byte by byte (core/json-bytes.ts). */
const SPECIAL = /[\\\u0000-\u001f]/g;
/**
 * Bytes decoded at a time. One decoded copy of a whole 12 MB content cost 35–60 ms in one block
 * (a fresh 12 MB allocation); windows of this size reuse the allocator's memory and take well
 * under a millisecond each (docs/benchmarks.md, "Pushes off the event loop").
 */
const WINDOW_BYTES = 1 << 20;

/**
 * Strings of a JSON text whose bytes are all ASCII, read from a decoded copy of the window of the
 * text they lie in: there byte offsets are character offsets, so a string is found by native
 * searches and taken as a slice, where decoding each of 100,000 names and values on its own costs
 * several times more. A string with an escape or a control character, one in a window that holds
 * a byte past ASCII, or one longer than a window is left to the byte reader, which decodes or
 * refuses it.
 */
export class AsciiStrings {
  /** The decoded window: bytes [base, base + text.length), or "" when they are not all ASCII. */
  private text = "";
  private base = 0;
  private end = 0;
  /** Offset in `text` of the next backslash or control character at or after `from`; Infinity past the last. */
  private next = -1;
  private from = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /**
   * The string whose opening quote is at `at`, into `out` (flags 0), when its bytes are ASCII and
   * hold neither a backslash nor a control character; false otherwise.
   */
  find(at: number, out: StringSpan): boolean {
    const first = at + 1;
    if (first < this.base || first >= this.end) this.load(first);
    if (this.text === "") return false;
    let close = this.text.indexOf('"', first - this.base);
    if (close === -1) {
      // The string may go on past the window: once from its start, then it is the byte reader's.
      if (this.end >= this.bytes.length || this.base === first) return false;
      this.load(first);
      close = this.text.indexOf('"', 0);
      if (close === -1) return false;
    }
    if (this.special(first - this.base) < close) return false;
    out.start = first;
    out.end = this.base + close;
    out.flags = 0;
    return true;
  }

  /** The text of bytes [start, end) of a span `find` has just given. */
  slice(start: number, end: number): string {
    return this.text.slice(start - this.base, end - this.base);
  }

  private load(from: number): void {
    const end = Math.min(this.bytes.length, from + WINDOW_BYTES);
    const window = this.bytes.subarray(from, end);
    this.text = isAscii(window) ? utf8.decode(window) : "";
    this.base = from;
    this.end = end;
    this.next = -1;
    this.from = 0;
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

import {
  contentTooLarge,
  MAX_CONTENT_BYTES,
  MAX_DEPTH,
  MAX_ROWS,
  requireKey,
  requireValue,
  tooManyRows,
} from "./content-rules.ts";
import { invalid, type ParlanceError } from "./errors.ts";
import { AsciiStrings } from "./json-ascii.ts";
import {
  bytePosition,
  decodeString,
  decodeText,
  describeAt,
  HAS_ESCAPE,
  JsonSyntax,
  MAY_HOLD_SPECIAL,
  type StringSpan,
  scanString,
} from "./json-bytes.ts";

/** Containers nested deeper hold no row anyway (MAX_DEPTH); past this the text is refused. */
const MAX_NESTING = 1000;

/**
 * Where the rows go. `add` returns false when the key is there already. `value` is null when the
 * caller only validates: a value is then checked on its bytes and never becomes a string.
 */
export interface RowSink {
  readonly wantsValues: boolean;
  add(key: string, value: string | null): boolean;
  /**
   * A member name was read that holds a dot, or repeats a name of its object: only then can a key
   * read from here on equal one read before. Keys are member names and indexes joined by dots, so
   * with no dot in any name each path gives a key of its own, and the name read before the second
   * of two equal keys is such a name. A sink may leave keys unchecked until this is called.
   */
  mayRepeat?(): void;
}

interface Container {
  /** Member names seen so far; null for an array. */
  names: Set<string> | null;
  /** Flattened key of this container; null for the top-level value. */
  prefix: string | null;
  index: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const DIGIT = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Reads a push's content (UTF-8 bytes) in one pass, flattening as it goes (CONTRACT §6): nested
 * objects and arrays become dot-separated keys, null becomes "null", numbers and booleans their
 * JavaScript text. No tree and no copy of the text is made; each row goes to `sink` as it is read.
 * Returns the number of rows. Errors, whatever their place in the text: invalid JSON (400 with
 * line and column) first, then the first row that breaks a rule (400), then too many rows (413),
 * then a name repeated in one object (400).
 */
export function readContent(bytes: Uint8Array, sink: RowSink): number {
  const reader = startReading(bytes, sink);
  readOn(reader, null);
  return finish(reader);
}

/**
 * Work run as a content is read, paced by the bytes read rather than by the clock: `run` once each
 * time reading passes another `bytes` (within VALUES_PER_LOOK values), whatever the slices' length.
 */
export interface ReadingPace {
  bytes: number;
  run(): void;
}

/**
 * `readContent` in slices of about `sliceMs`, awaiting `pause` between them, so that a 12 MB
 * content (30–300 ms of reading) does not hold the event loop in one block. The same rows go to
 * `sink` in the same order, and the same error is thrown. `pace`, if given, runs inside the slices.
 */
export async function readContentInSlices(
  bytes: Uint8Array,
  sink: RowSink,
  pause: () => Promise<void>,
  sliceMs: number,
  pace?: ReadingPace,
): Promise<number> {
  const reader = startReading(bytes, sink);
  // A small content is read in far less than a slice: it waits for no turn (a push of a few keys
  // would otherwise wait for the event loop's next turn, a millisecond or more under load).
  if (bytes.length <= READ_AT_ONCE_BYTES && readOn(reader, null)) return finish(reader);
  let until = 0;
  let paceAt = pace ? reader.position + pace.bytes : Number.POSITIVE_INFINITY;
  const due = () => {
    if (pace && reader.position >= paceAt) {
      paceAt = reader.position + pace.bytes;
      pace.run();
    }
    return performance.now() >= until;
  };
  for (;;) {
    await pause();
    until = performance.now() + sliceMs;
    if (readOn(reader, due)) return finish(reader);
  }
}

function startReading(bytes: Uint8Array, sink: RowSink): ContentReader {
  if (bytes.length > MAX_CONTENT_BYTES) throw contentTooLarge(bytes.length);
  // A byte order mark (files saved by some editors) is not content: RFC 8259 §8.1 lets parsers ignore it.
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return new ContentReader(bytes, from, sink);
}

/** `reader.read(due)`, its syntax error told as a 400 with line and column. */
function readOn(reader: ContentReader, due: (() => boolean) | null): boolean {
  try {
    return reader.read(due);
  } catch (e) {
    if (!(e instanceof JsonSyntax)) throw e;
    const { line, column } = bytePosition(reader.bytes, reader.from, e.offset);
    throw invalid(`content is not valid JSON: ${e.reason} at line ${line}, column ${column}`, e.reason);
  }
}

/** The row count of a content read to its end, or the first error that is not a syntax error. */
function finish(reader: ContentReader): number {
  if (reader.rootIsNotObject) throw invalid("content must be a JSON object");
  if (reader.broken) throw reader.broken;
  if (reader.rows > MAX_ROWS) throw tooManyRows(reader.rows);
  if (reader.repeated) throw reader.repeated;
  return reader.rows;
}

/** Contents up to this size are read in one go by `readContentInSlices` (well under 1 ms). */
const READ_AT_ONCE_BYTES = 64 * 1024;

/** Values read between two looks at the clock when reading in slices. */
const VALUES_PER_LOOK = 1024;

class ContentReader {
  private at: number;
  /** Where reading stopped for a turn: at the start of a value, whose key this is. */
  private key: string | null = null;
  private started = false;
  private values = 0;
  private readonly stack: Container[] = [];
  private readonly span: StringSpan = { start: 0, end: 0, flags: 0 };
  /** Null when only validating: keys that are slices would keep the decoded windows alive. */
  private readonly ascii: AsciiStrings | null;
  /** Whether `span` was found by `ascii` (its text is then a slice of a decoded window). */
  private sliced = false;
  rows = 0;
  rootIsNotObject = false;
  /** The first row that breaks a rule; once set, the rest is only checked for syntax. */
  broken: ParlanceError | null = null;
  repeated: ParlanceError | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly from: number,
    private readonly sink: RowSink,
  ) {
    this.at = from;
    this.ascii = sink.wantsValues ? new AsciiStrings(bytes) : null;
  }

  /** Bytes read so far (where reading stopped or stands). */
  get position(): number {
    return this.at;
  }

  /** The string at `at` into `this.span`. */
  private scan(at: number): void {
    this.sliced = this.ascii?.find(at, this.span) ?? false;
    if (!this.sliced) scanString(this.bytes, at, this.span);
  }

  private text(): string {
    const s = this.span;
    return this.sliced && this.ascii ? this.ascii.slice(s.start, s.end) : decodeString(this.bytes, s);
  }

  private space(): void {
    const b = this.bytes;
    while (isSpace(b[this.at] as number)) this.at++;
  }

  private fail(expected?: string): never {
    const found = describeAt(this.bytes, this.at);
    throw new JsonSyntax(expected ? `${found}, expected ${expected}` : found, this.at);
  }

  /**
   * Reads the document on from where it stopped: true at its end; false when `due` (asked every
   * VALUES_PER_LOOK values, where a value starts) says to stop for a turn. The whole state is
   * `at`, `stack` and the pending `key`, so reading resumes exactly where it paused.
   */
  read(due: (() => boolean) | null): boolean {
    const b = this.bytes;
    if (!this.started) {
      this.started = true;
      const start = this.at;
      this.space();
      if (this.at >= b.length) throw new JsonSyntax("the text is empty", start);
      this.rootIsNotObject = b[this.at] !== 0x7b;
    }
    let key = this.key;
    for (;;) {
      // A value starts here.
      if (due && ++this.values % VALUES_PER_LOOK === 0 && due()) {
        this.key = key;
        return false;
      }
      const c = b[this.at] as number;
      if (c === 0x7b || c === 0x5b) {
        if (this.stack.length >= MAX_NESTING)
          throw new JsonSyntax(`nested more than ${MAX_NESTING} levels deep`, this.at);
        const top: Container = { names: c === 0x7b ? new Set() : null, prefix: key, index: 0 };
        this.stack.push(top);
        this.at++;
        this.space();
        if (b[this.at] === (c === 0x7b ? 0x7d : 0x5d)) {
          this.at++;
          this.stack.pop();
        } else {
          key = top.names ? this.memberName(top) : childKey(top.prefix, "0");
          continue;
        }
      } else this.leaf(key);
      // After a value: the next member or element, or the end of containers.
      for (;;) {
        const top = this.stack[this.stack.length - 1];
        if (!top) {
          this.space();
          if (this.at < b.length) throw new JsonSyntax(`${describeAt(b, this.at)} after the value`, this.at);
          return true;
        }
        this.space();
        const d = b[this.at];
        if (d === 0x2c) {
          this.at++;
          this.space();
          if (top.names) key = this.memberName(top);
          else key = childKey(top.prefix, String(++top.index));
          break;
        }
        if (d === (top.names ? 0x7d : 0x5d)) {
          this.at++;
          this.stack.pop();
          continue;
        }
        this.fail(top.names ? '"," or "}"' : '"," or "]"');
      }
    }
  }

  /** Reads `"name" :` and returns the member's flattened key. */
  private memberName(top: Container): string {
    const b = this.bytes;
    if (b[this.at] !== 0x22) this.fail("a member name in double quotes");
    this.scan(this.at);
    const name = this.text();
    this.at = this.span.end + 1;
    const key = childKey(top.prefix, name);
    const names = top.names as Set<string>;
    const size = names.size;
    // JSON.parse would keep the last of the two silently: that is two inputs for one key.
    if (names.add(name).size === size) {
      this.repeated ??= invalid(`Key ${JSON.stringify(key)} appears more than once in the content`);
      this.sink.mayRepeat?.();
    } else if (name.includes(".")) this.sink.mayRepeat?.();
    this.space();
    if (b[this.at] !== 0x3a) this.fail('":"');
    this.at++;
    this.space();
    return key;
  }

  private leaf(key: string | null): void {
    const b = this.bytes;
    const c = b[this.at] as number;
    let text: string | null = null;
    let special = false;
    let number = false;
    const at = this.at;
    if (c === 0x22) {
      this.scan(at);
      this.at = this.span.end + 1;
      special = (this.span.flags & (HAS_ESCAPE | MAY_HOLD_SPECIAL)) !== 0;
    } else if (c === 0x74 && b[at + 1] === 0x72 && b[at + 2] === 0x75 && b[at + 3] === 0x65) {
      text = "true";
      this.at += 4;
    } else if (
      c === 0x66 &&
      b[at + 1] === 0x61 &&
      b[at + 2] === 0x6c &&
      b[at + 3] === 0x73 &&
      b[at + 4] === 0x65
    ) {
      text = "false";
      this.at += 5;
    } else if (c === 0x6e && b[at + 1] === 0x75 && b[at + 2] === 0x6c && b[at + 3] === 0x6c) {
      text = "null";
      this.at += 4;
    } else {
      this.number();
      number = true;
    }
    if (key === null || this.broken || this.rootIsNotObject) return;
    this.rows++;
    const depth = this.stack.length;
    try {
      if (depth > MAX_DEPTH)
        throw invalid(`Key ${JSON.stringify(key)} is nested more than ${MAX_DEPTH} levels deep`);
      if (number) {
        const n = Number(decodeText(b, at, this.at, false));
        if (!Number.isFinite(n))
          throw invalid(`Value of key ${JSON.stringify(key)} is a number out of range`);
        text = String(n);
      }
      requireKey(key);
      if (text === null && (special || this.sink.wantsValues)) {
        text = this.text();
        if (special) requireValue(key, text);
      }
      if (!this.sink.add(key, this.sink.wantsValues ? text : null))
        throw invalid(`Key ${JSON.stringify(key)} appears more than once after flattening`);
    } catch (e) {
      this.broken = e as ParlanceError;
    }
  }

  /** RFC 8259's number, matched as `readJson` matches it: as far as the grammar goes. */
  private number(): void {
    const b = this.bytes;
    let i = this.at;
    if (b[i] === 0x2d) i++;
    if (b[i] === 0x30) i++;
    else if ((b[i] as number) >= 0x31 && (b[i] as number) <= 0x39) while (DIGIT(b[i] as number)) i++;
    else this.fail("a value");
    if (b[i] === 0x2e && DIGIT(b[i + 1] as number)) {
      i += 2;
      while (DIGIT(b[i] as number)) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      let j = i + 1;
      if (b[j] === 0x2b || b[j] === 0x2d) j++;
      if (DIGIT(b[j] as number)) {
        while (DIGIT(b[j] as number)) j++;
        i = j;
      }
    }
    this.at = i;
  }
}

const childKey = (prefix: string | null, segment: string) =>
  prefix === null ? segment : `${prefix}.${segment}`;

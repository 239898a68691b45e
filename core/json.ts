import { invalid } from "./errors.ts";

/**
 * The prototype of every object `readJson` makes: frozen, with no string-named member at all, so
 * nothing can be inherited from it or planted in it. Its one member is `Symbol.toPrimitive`, which
 * code printing a value (validators' messages do) reaches first, and which no JSON member can
 * shadow: `{"toString":null,"valueOf":{}}` still prints as "[object Object]".
 */
const JSON_OBJECT = Object.freeze(
  Object.create(null, { [Symbol.toPrimitive]: { value: () => "[object Object]" } }) as object,
);

/** A JSON value as `readJson` returns it (objects on the `JSON_OBJECT` prototype). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [name: string]: JsonValue };

export interface ReadJsonOptions {
  /** Deepest nesting of objects and arrays accepted (the outermost counts as 1). */
  maxDepth?: number;
  /** What the text is, for messages: "Request body", "content". */
  what?: string;
  /** Where an offset of the text lies, when the text stands for another (server/push-body.ts). */
  locate?: (offset: number) => { line: number; column: number };
}

/** Where `offset` lies in `text`, 1-based, as an editor counts (a CRLF is one line break). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

class JsonSyntax extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const CONTROL = /[\u0000-\u001f]/;

/**
 * The one way Parlance reads JSON it did not write (request bodies; the position of an error in
 * pushed content). Strict RFC 8259, and safer than JSON.parse for the code that reads the result:
 * `__proto__`, `constructor` and `prototype` are plain own members at every depth and nothing
 * else is inherited (objects sit on a frozen, empty prototype); a name repeated in one object is refused (JSON.parse
 * would keep the last silently); errors name the line and column.
 */
export function readJson(text: string, options: ReadJsonOptions = {}): JsonValue {
  const what = options.what ?? "The text";
  try {
    return new Reader(text, options.maxDepth ?? 64).document();
  } catch (e) {
    if (!(e instanceof JsonSyntax)) throw e;
    const { line, column } = options.locate?.(e.offset) ?? lineAndColumn(text, e.offset);
    throw invalid(`${what} is not valid JSON: ${e.reason} at line ${line}, column ${column}`);
  }
}

/** Line and column of JSON's first error in `text`, or null when it is valid JSON. */
export function jsonErrorAt(text: string): { reason: string; line: number; column: number } | null {
  try {
    new Reader(text, 1000).document();
    return null;
  } catch (e) {
    // Deeper than the reader goes: JSON.parse's own verdict stands, without a position.
    if (!(e instanceof JsonSyntax) || e.reason.startsWith("nested more than")) return null;
    return { reason: e.reason, ...lineAndColumn(text, e.offset) };
  }
}

const describe = (c: string | undefined) =>
  c === undefined
    ? "unexpected end of text"
    : /[\u0000-\u0020\u007f-\u00a0]/.test(c)
      ? `unexpected character U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`
      : `unexpected character ${JSON.stringify(c)}`;

class Reader {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  document(): JsonValue {
    this.space();
    if (this.at >= this.text.length) throw new JsonSyntax("the text is empty", 0);
    const value = this.value(1);
    this.space();
    if (this.at < this.text.length)
      throw new JsonSyntax(`${describe(this.text[this.at])} after the value`, this.at);
    return value;
  }

  private space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++;
      else return;
    }
  }

  private fail(expected?: string): never {
    const found = describe(this.text[this.at]);
    throw new JsonSyntax(expected ? `${found}, expected ${expected}` : found, this.at);
  }

  private value(depth: number): JsonValue {
    const t = this.text;
    const c = t[this.at];
    if (c === "{" || c === "[") {
      if (depth > this.maxDepth) {
        throw new JsonSyntax(`nested more than ${this.maxDepth} levels deep`, this.at);
      }
      return c === "{" ? this.object(depth) : this.array(depth);
    }
    if (c === '"') return this.string();
    if (c === "t" && t.startsWith("true", this.at)) return this.word(4, true);
    if (c === "f" && t.startsWith("false", this.at)) return this.word(5, false);
    if (c === "n" && t.startsWith("null", this.at)) return this.word(4, null);
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(t);
    if (m) {
      const n = Number(m[0]);
      if (!Number.isFinite(n)) throw new JsonSyntax(`the number ${m[0]} is out of range`, this.at);
      this.at += m[0].length;
      return n;
    }
    return this.fail("a value");
  }

  private word<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  private string(): string {
    const t = this.text;
    const start = this.at;
    let end = t.indexOf('"', start + 1);
    let escaped = false;
    for (;;) {
      if (end === -1) throw new JsonSyntax("unterminated string", start);
      let slashes = 0;
      for (let i = end - 1; t.charCodeAt(i) === 0x5c; i--) slashes++;
      if (slashes > 0) escaped = true;
      if (slashes % 2 === 0) break;
      end = t.indexOf('"', end + 1);
    }
    const raw = t.slice(start + 1, end);
    if (CONTROL.test(raw)) {
      const i = raw.search(CONTROL);
      throw new JsonSyntax(`${describe(raw[i])} inside a string (escape it)`, start + 1 + i);
    }
    this.at = end + 1;
    if (!escaped && raw.indexOf("\\") === -1) return raw;
    try {
      return JSON.parse(t.slice(start, end + 1)) as string;
    } catch {
      const bad = /\\(?:u(?![0-9a-fA-F]{4})|[^"\\/bfnrtu])/.exec(raw);
      throw new JsonSyntax("invalid escape in a string", start + 1 + (bad?.index ?? 0));
    }
  }

  private object(depth: number): { [name: string]: JsonValue } {
    const out = Object.create(JSON_OBJECT) as { [name: string]: JsonValue };
    this.at++;
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      if (this.text[this.at] !== '"') this.fail("a member name in double quotes");
      const nameAt = this.at;
      const name = this.string();
      if (Object.hasOwn(out, name)) {
        throw new JsonSyntax(`the member name ${JSON.stringify(name)} appears twice in one object`, nameAt);
      }
      this.space();
      if (this.text[this.at] !== ":") this.fail('":"');
      this.at++;
      this.space();
      // defineProperty, not assignment: "__proto__" must become a member, not the prototype.
      Object.defineProperty(out, name, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.space();
      const c = this.text[this.at];
      this.at++;
      if (c === "}") return out;
      if (c !== ",") {
        this.at--;
        this.fail('"," or "}"');
      }
      this.space();
    }
  }

  private array(depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.space();
      const c = this.text[this.at];
      this.at++;
      if (c === "]") return out;
      if (c !== ",") {
        this.at--;
        this.fail('"," or "]"');
      }
      this.space();
    }
  }
}

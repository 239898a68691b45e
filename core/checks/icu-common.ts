import type { MessageFormatElement, PluralOrSelectOption } from "@formatjs/icu-messageformat-parser";

/**
 * A fast reader for the ICU most messages use: literal text, `{x}`, `{x, number|date|time[, style]}`,
 * `{x, plural|selectordinal|select, …}` with `#`. It returns exactly the tree FormatJS's parser
 * returns (test/core/checks-icu-common.test.ts compares them on generated and real messages), or
 * null as soon as it meets anything else: quoting apostrophes, skeletons (`::`), `offset:`, signed
 * `=` cases. Where the parser certainly fails too (`{{name}}`, a missing `other`) it says INVALID,
 * so an i18next base needs no parse; the parser is still asked to explain an error to a translator.
 * Parsing is most of what a check costs; this is 3–5× faster than the parser.
 */

// The parser's own definitions (Pattern_White_Space; identifier characters).
const isSpace = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0x85 ||
  c === 0x200e ||
  c === 0x200f ||
  c === 0x2028 ||
  c === 0x2029;
const IDENTIFIER = /([^\p{White_Space}\p{Pattern_Syntax}]*)/uy;

interface Cursor {
  s: string;
  i: number;
  /** Set where the parser itself certainly fails too (not where this reader merely gives up). */
  invalid: boolean;
}

/** The text is certainly not valid ICU: the parser would fail too (it is asked when the reason matters). */
export const INVALID = "invalid";

const fail = (p: Cursor): null => {
  p.invalid = true;
  return null;
};

type Parent = "" | "plural" | "selectordinal" | "select";

export function parseCommonIcu(text: string): MessageFormatElement[] | typeof INVALID | null {
  const p: Cursor = { s: text, i: 0, invalid: false };
  const out = message(p, 0, "");
  if (out === null) return p.invalid ? INVALID : null;
  return p.i === text.length ? out : null;
}

function skipSpace(p: Cursor): void {
  while (p.i < p.s.length && isSpace(p.s.charCodeAt(p.i))) p.i++;
}

const isAsciiName = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;

function identifier(p: Cursor): string {
  // ASCII names end at ASCII punctuation or whitespace; anything else needs the Unicode rule.
  let end = p.i;
  while (end < p.s.length && isAsciiName(p.s.charCodeAt(end))) end++;
  const stop = p.s.charCodeAt(end);
  if (end === p.s.length || (stop >= 0x20 && stop < 0x7f) || (stop >= 9 && stop <= 13)) {
    const name = p.s.slice(p.i, end);
    p.i = end;
    return name;
  }
  IDENTIFIER.lastIndex = p.i;
  const name = IDENTIFIER.exec(p.s)?.[1] ?? "";
  p.i += name.length;
  return name;
}

function message(p: Cursor, level: number, parent: Parent): MessageFormatElement[] | null {
  const out: MessageFormatElement[] = [];
  const counts = parent === "plural" || parent === "selectordinal";
  let literal = "";
  let from = p.i;
  const { s } = p;
  while (p.i < s.length) {
    const c = s.charCodeAt(p.i);
    if (c === 0x7d && level > 0) break;
    if (c === 0x7b || (c === 0x23 && counts) || c === 0x27) {
      literal += s.slice(from, p.i);
      if (c === 0x27) {
        const next = s.charCodeAt(p.i + 1);
        // '' is one apostrophe; before { } < > (or # in a plural) an apostrophe starts quoted text.
        if (next === 0x7b || next === 0x7d || next === 0x3c || next === 0x3e || (next === 0x23 && counts))
          return null;
        literal += "'";
        p.i += next === 0x27 ? 2 : 1;
        from = p.i;
        continue;
      }
      if (literal !== "") out.push({ type: 0, value: literal });
      literal = "";
      if (c === 0x23) {
        out.push({ type: 7 });
        p.i++;
      } else {
        const arg = argument(p, level);
        if (arg === null) return null;
        out.push(arg);
      }
      from = p.i;
    } else p.i++;
  }
  literal += s.slice(from, p.i);
  if (literal !== "") out.push({ type: 0, value: literal });
  return out;
}

function argument(p: Cursor, level: number): MessageFormatElement | null {
  p.i++; // {
  skipSpace(p);
  const value = identifier(p);
  if (value === "") return fail(p);
  skipSpace(p);
  if (p.s[p.i] === "}") {
    p.i++;
    return { type: 1, value };
  }
  if (p.s[p.i] !== ",") return fail(p);
  p.i++;
  skipSpace(p);
  const kind = identifier(p);
  skipSpace(p);
  if (kind === "number" || kind === "date" || kind === "time") {
    let style: string | null = null;
    if (p.s[p.i] === ",") {
      p.i++;
      skipSpace(p);
      const end = p.s.indexOf("}", p.i);
      if (end < 0) return null;
      style = p.s.slice(p.i, end).trimEnd();
      // Quotes, nested braces and skeletons are the parser's job.
      if (style === "") return fail(p);
      if (style.startsWith("::") || /['{]/.test(style)) return null;
      p.i = end;
    }
    if (p.s[p.i] !== "}") return fail(p);
    p.i++;
    return { type: kind === "number" ? 2 : kind === "date" ? 3 : 4, value, style };
  }
  if (kind !== "plural" && kind !== "selectordinal" && kind !== "select") return fail(p);
  if (p.s[p.i] !== ",") return fail(p);
  p.i++;
  skipSpace(p);
  const options = cases(p, level, kind);
  if (options === null) return null;
  if (p.s[p.i] !== "}") return fail(p);
  p.i++;
  if (kind === "select") return { type: 5, value, options };
  return { type: 6, value, options, offset: 0, pluralType: kind === "plural" ? "cardinal" : "ordinal" };
}

function cases(p: Cursor, level: number, kind: Parent): Record<string, PluralOrSelectOption> | null {
  const options: Record<string, PluralOrSelectOption> = {};
  const seen: string[] = [];
  for (;;) {
    let key = identifier(p);
    if (key === "offset" && kind !== "select") return null;
    if (key === "" && kind !== "select" && p.s[p.i] === "=") {
      const digits = /[0-9]+/y;
      digits.lastIndex = p.i + 1;
      const m = digits.exec(p.s);
      if (m === null) return null;
      key = `=${m[0]}`;
      p.i += key.length;
    }
    if (key === "") break;
    if (seen.includes(key)) return fail(p);
    if (key === "__proto__") return null;
    seen.push(key);
    skipSpace(p);
    if (p.s[p.i] !== "{") return fail(p);
    p.i++;
    const value = message(p, level + 1, kind);
    if (value === null) return null;
    if (p.s[p.i] !== "}") return fail(p);
    p.i++;
    options[key] = { value };
    skipSpace(p);
  }
  return seen.includes("other") ? options : fail(p);
}

import { type Directive, scanPrintf } from "./printf.ts";
import { scanTags } from "./tags.ts";
import { addEntry, emptyTally, type Tally } from "./tally.ts";

/** i18next interpolation: `{{name}}`, `{{name, format}}`, `{{- name}}` (unescaped). */
const I18NEXT = /\{\{\s*(?:-\s*)?([^{}\s,]+)\s*(?:,[^{}]*)?\}\}/g;
/** i18next nesting: `$t(key)`, `$t(ns:key, {"count": 2})`; also used with i18next-icu. */
const NESTING = /\$t\(\s*([^\s,()]+)/g;
/**
 * Single-brace placeholders outside ICU (Vue I18n, .NET, Python format): `{name}`, `{0}`,
 * `{0,-10:N2}`, `{name!r:>8}`. Never part of `{{…}}`; `{a,b,c}` (a shell brace list) is not one.
 */
const BRACE =
  /(?<!\{)\{\s*([\p{L}\p{N}_$][\p{L}\p{N}_$.-]*)\s*(?:,\s*-?\d+\s*)?(?:![rsa])?(?::[^{}]*)?\}(?!\})/gu;
const BREAK = /\r\n?|[\n\u2028\u2029]/g;
const ESCAPED_BREAK = /\\n/g;

/** Which syntaxes a text is read with; tags and `$t()` always are. */
export interface Syntaxes {
  /** printf directives; only when the base has one (see printf.ts). */
  printf: boolean;
  /** `{{name}}` and single-brace `{name}`: plain (non-ICU) texts only. */
  plain: boolean;
}

export interface Scanned {
  tally: Tally;
  /** printf directives in order of appearance; their comparison needs the order. */
  printf: Directive[];
}

function count(text: string, re: RegExp): number {
  let n = 0;
  re.lastIndex = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

/** Whether `text` can hold anything scanText counts: most literal text cannot. */
export function worthScanning(text: string, syntaxes: Syntaxes): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7e) {
      if (c === 0x2028 || c === 0x2029) return true;
    } else if (c === 0x3c || c === 0x24 || c === 0x5c || c === 0x0a || c === 0x0d)
      return true; // < $ \ LF CR
    else if (c === 0x25 ? syntaxes.printf : c === 0x7b && syntaxes.plain) return true; // % {
  }
  return false;
}

/** Everything of `text` that checks compare, except ICU arguments (icu-walk.ts reads those). */
export function scanText(text: string, syntaxes: Syntaxes): Scanned {
  const tally = emptyTally();
  for (const tag of scanTags(text)) addEntry(tally, { syntax: "tag", key: tag, text: tag, counted: true });
  if (text.includes("$t(")) {
    NESTING.lastIndex = 0;
    for (let m = NESTING.exec(text); m !== null; m = NESTING.exec(text)) {
      const key = `$t(${m[1]})`;
      addEntry(tally, { syntax: "i18next", key, text: key, counted: false });
    }
  }
  if (syntaxes.plain && text.includes("{")) {
    I18NEXT.lastIndex = 0;
    for (let m = I18NEXT.exec(text); m !== null; m = I18NEXT.exec(text)) {
      addEntry(tally, { syntax: "i18next", key: `{{${m[1]}}}`, text: m[0], counted: false });
    }
    BRACE.lastIndex = 0;
    for (let m = BRACE.exec(text); m !== null; m = BRACE.exec(text)) {
      addEntry(tally, { syntax: "brace", key: `{${m[1]}}`, text: m[0], counted: false });
    }
  }
  if (text.includes("\n") || text.includes("\r") || text.includes("\u2028") || text.includes("\u2029")) {
    tally.breaks = count(text, BREAK);
  }
  if (text.includes("\\n")) tally.escapedBreaks = count(text, ESCAPED_BREAK);
  return { tally, printf: syntaxes.printf ? scanPrintf(text) : [] };
}

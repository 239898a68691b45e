import { compareTallies } from "./compare.ts";
import { compareIcu } from "./compare-icu.ts";
import { comparePrintf } from "./compare-printf.ts";
import { innerBreaks, whitespaceWarnings } from "./edges.ts";
import { looksLikeIcu, parseIcu } from "./icu-parse.ts";
import { readIcu } from "./icu-read.ts";
import { icuSyntaxWarning } from "./icu-syntax.ts";
import { isPrintf } from "./printf.ts";
import { type Syntaxes, scanText } from "./scan.ts";
import type { Tally } from "./tally.ts";
import { type CheckInput, MAX_WARNINGS, WARNING_CODES, type Warning } from "./types.ts";

/**
 * A text without any of these characters, and without whitespace at either end, holds no
 * placeholder, tag, line break or edge whitespace: only the cheap checks apply to it.
 */
const SPECIAL = /[{%<$\\\n\r\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\uFEFF]/;
const SPACE = /\s/;
const plain = (s: string) =>
  s === "" || (!SPECIAL.test(s) && !SPACE.test(s[0] as string) && !SPACE.test(s[s.length - 1] as string));

const RANK = new Map<string, number>(WARNING_CODES.map((c, i) => [c, i]));

/**
 * Every warning about `value` as a translation of `base`. Pure and synchronous: the server runs it
 * on every write and the browser on every keystroke. It never changes the text and never throws.
 * Warnings come in the order of WARNING_CODES, then in text order. Rules: docs/checks.md.
 */
export function checkTranslation(input: CheckInput): Warning[] {
  const { base, value } = input;
  if (base === null) return checkAlone(value);
  if (value.trim() === "" && base.trim() !== "") {
    return [
      {
        code: "empty",
        message:
          "The translation is empty while the base has text, so the app would show nothing here: translate the base's text.",
      },
    ];
  }
  if (plain(base) && plain(value)) return [];
  const out: Warning[] = [];
  const syntaxes: Syntaxes = { printf: isPrintf(base), plain: false };
  const icu = base.includes("{") ? readIcu(base, syntaxes, false) : null;
  let tallies: [Tally, Tally];
  // A base is ICU when it parses and has an argument: quoting alone ('{') is not enough to tell.
  if (icu?.ok && icu.inv.args.size > 0) {
    const ofBase = icu.inv;
    const read = readIcu(value, syntaxes, true);
    if (!read.ok) {
      if (read.error) out.push(icuSyntaxWarning(value, read.error, true, ofBase.args.keys()));
      out.push(...whitespaceWarnings(base, value, input.language));
      return finish(out);
    }
    const ofValue = read.inv;
    compareIcu(ofBase, ofValue, value, out);
    tallies = [ofBase.tally, ofValue.tally];
  } else {
    syntaxes.plain = true;
    const b = scanText(base, syntaxes);
    const v = scanText(value, syntaxes);
    if (syntaxes.printf) comparePrintf(base, b.printf, v.printf, value, out);
    tallies = [b.tally, v.tally];
  }
  const [b, v] = tallies;
  compareTallies(b, v, value, out);
  out.push(...whitespaceWarnings(base, value, input.language));
  out.push(...breakWarnings(b, v, base, value));
  return finish(out);
}

/** A value with no base to compare with: only whether it is broken ICU when it is evidently ICU. */
function checkAlone(value: string): Warning[] {
  if (!looksLikeIcu(value)) return [];
  const parsed = parseIcu(value);
  return parsed.ok ? [] : [icuSyntaxWarning(value, parsed.error, false, [])];
}

function breakWarnings(b: Tally, v: Tally, base: string, value: string): Warning[] {
  const out: Warning[] = [];
  const inBase = innerBreaks(b.breaks, base);
  const inValue = innerBreaks(v.breaks, value);
  if (inBase !== inValue) {
    out.push({
      code: "line-breaks",
      message: `The base has ${lineBreaks(inBase)} inside the text, the translation ${lineBreaks(inValue)}. Keep the base's line breaks: the layout depends on them.`,
    });
  }
  if (b.escapedBreaks !== v.escapedBreaks) {
    out.push({
      code: "line-breaks",
      message: `The base has ${b.escapedBreaks} \\n (a line break written as backslash and n), the translation ${v.escapedBreaks}. Keep them as in the base.`,
      placeholder: "\\n",
    });
  }
  return out;
}

const lineBreaks = (n: number) => (n === 0 ? "no line break" : n === 1 ? "1 line break" : `${n} line breaks`);

function finish(out: Warning[]): Warning[] {
  if (out.length < 2) return out;
  // Array.prototype.sort is stable: within a code, warnings keep the order they were found in.
  out.sort((a, b) => (RANK.get(a.code) ?? 0) - (RANK.get(b.code) ?? 0));
  return out.length > MAX_WARNINGS ? out.slice(0, MAX_WARNINGS) : out;
}

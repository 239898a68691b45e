/**
 * Why a placeholder may look present to a translator and still be missing: the slips seen most in
 * real translations, each turned into one sentence that says how to fix it.
 */
import { escapeRegExp } from "./regexp.ts";

/** Full-width forms that East Asian input methods type in place of ASCII placeholder characters. */
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const toAscii = (s: string) => s.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));

/** The ways `written` (as the base writes it) can be present in `value` but not work. */
export function missingHint(written: string, value: string, icuName?: string): string {
  if (icuName !== undefined && value.includes("'")) {
    const quoted = new RegExp(`'\\{\\s*${escapeRegExp(icuName)}\\s*[,}]`);
    if (quoted.test(value)) {
      return (
        ` In ICU an apostrophe right before { starts quoted text, so {${icuName}} would be shown as ` +
        "it is: write the apostrophe as ’ or double it ('')."
      );
    }
  }
  if (/[\uFF01-\uFF5E]/.test(value) && toAscii(value).includes(written)) {
    return ` The translation has it typed with full-width characters: use the ASCII ones, exactly ${written}.`;
  }
  const reversed = [...written].reverse().join("");
  if (reversed !== written && written.length > 1 && value.includes(reversed)) {
    return (
      ` It looks written backwards (${reversed}), as right-to-left editing can do: ` +
      `a placeholder is always typed left to right, ${written}.`
    );
  }
  return "";
}

/**
 * For an ICU syntax error at `offset`: double braces there, or one of the base's arguments typed
 * backwards in right-to-left text (`}name{`; only a known name: `} other {` is how cases follow
 * each other).
 */
export function syntaxHint(value: string, offset: number, baseArgs: Iterable<string>): string {
  if (value.startsWith("{{", offset)) {
    return " Double braces {{…}} are not ICU: a placeholder has single braces, {name}.";
  }
  for (const name of baseArgs) {
    if (value.includes(`}${name}{`)) {
      return (
        ` }${name}{ looks written backwards, as right-to-left editing can do: ` +
        `type it left to right, {${name}}.`
      );
    }
  }
  return "";
}

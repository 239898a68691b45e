import { syntaxHint } from "./hints.ts";
import type { IcuError } from "./icu-parse.ts";
import type { Warning } from "./types.ts";

const TYPES = "plural, select, selectordinal, number, date or time";
const PLURAL_CASES = "zero, one, two, few, many, other, or =0, =1…";

/** What each parser error means to a translator, and how to fix it. */
const EXPLAIN: Readonly<Record<string, string>> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: "a { is never closed: add the matching }, or write '{' to show a brace.",
  EMPTY_ARGUMENT: "{} has no placeholder name inside: write the name the base uses, or '{}' to show braces.",
  MALFORMED_ARGUMENT:
    "what follows { is not a placeholder name (letters, digits or _, as in {name}); write '{' to show a brace.",
  EXPECT_ARGUMENT_TYPE: `the comma after a placeholder name must be followed by its type (${TYPES}), as in the base.`,
  INVALID_ARGUMENT_TYPE: `the word after the comma is not an ICU type: keep the base's keyword (${TYPES}); these words are never translated.`,
  EXPECT_ARGUMENT_STYLE:
    "a second comma must be followed by a style, as in {n, number, percent}: copy it from the base.",
  INVALID_NUMBER_SKELETON: "the number format after :: is not valid: copy it unchanged from the base.",
  EXPECT_NUMBER_SKELETON: "the number format after :: is missing: copy it unchanged from the base.",
  INVALID_DATE_TIME_SKELETON: "the date format after :: is not valid: copy it unchanged from the base.",
  EXPECT_DATE_TIME_SKELETON: "the date format after :: is missing: copy it unchanged from the base.",
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE:
    "an apostrophe in the format starts quoted text that never ends: remove it or close it.",
  EXPECT_SELECT_ARGUMENT_OPTIONS: "a select needs its cases, as in {gender, select, male {…} other {…}}.",
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: "offset: must be followed by a whole number, as in the base.",
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: "offset: must be followed by a whole number, as in the base.",
  EXPECT_SELECT_ARGUMENT_SELECTOR:
    "a select needs a case name (as in the base: male, female, other…) before each {…}.",
  EXPECT_PLURAL_ARGUMENT_SELECTOR: `a plural needs a case name before each {…}: ${PLURAL_CASES}`,
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT:
    "each case name must be followed by its text in braces, as in other {…}.",
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT:
    "each case name must be followed by its text in braces, as in other {…}.",
  INVALID_PLURAL_ARGUMENT_SELECTOR: `a plural case name is not valid: use ${PLURAL_CASES}`,
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: "a case name appears twice in the same plural: keep one of each.",
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: "a case name appears twice in the same select: keep one of each.",
  MISSING_OTHER_CLAUSE:
    "every plural, select and selectordinal needs an other {…} case. Case names (one, few, other…) are never translated.",
  TOO_DEEP: "it is nested too deeply to read.",
};

/** ` near "…"`: a few characters around the problem, so it can be found in a long text. */
function near(value: string, offset: number): string {
  const chars = [...value.slice(Math.max(0, offset - 12), offset + 12)];
  const excerpt = chars.join("").replace(/\s+/g, " ").trim();
  return excerpt === "" ? "" : ` (near “${excerpt}”)`;
}

/**
 * One `icu-syntax` warning. `hasBase`: whether the base is valid ICU (the usual case) or there is no
 * base and the text itself is evidently meant as ICU.
 */
export function icuSyntaxWarning(
  value: string,
  error: IcuError,
  hasBase: boolean,
  baseArgs: Iterable<string>,
): Warning {
  const explained = EXPLAIN[error.kind] ?? `${error.detail}.`;
  const lead = hasBase
    ? "This is not valid ICU MessageFormat, which the base is: "
    : "This is not valid ICU MessageFormat: ";
  const offset = Math.min(error.offset, value.length);
  return {
    code: "icu-syntax",
    message: `${lead}${explained}${near(value, offset)}${syntaxHint(value, offset, baseArgs)}`,
    syntax: "icu",
    offset,
  };
}

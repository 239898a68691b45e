import fc from "fast-check";
import type { TranslationStatus } from "../../../core/types.ts";
import type { Entry } from "./input.ts";

/** Values that break naive writers, by an Android-valid name (so aapt can compile them as keys). */
export const HARD_VALUES: Record<string, string> = {
  apostrophe: "it's",
  apostrophes_only: "''",
  quotes: 'say "hi"',
  quote_only: '"',
  backslash: "C:\\path\\new",
  backslash_escapes: "\\n \\t \\u000d \\' \\\" \\@",
  newline: "line1\nline2",
  newline_only: "\n",
  crlf: "a\r\nb",
  cr: "a\rb",
  cr_only: "\r",
  tab: "a\tb",
  tabs_at_ends: "\tx\t",
  leading_space: " lead",
  trailing_space: "trail ",
  double_space: "a  b",
  spaces_only: "   ",
  single_space: " ",
  space_newline_space: " \n ",
  empty: "",
  at_reference: "@string/app_name",
  at_null: "@null",
  question_attr: "?attr/colorPrimary",
  at_quoted: "@ with  two spaces ",
  at_middle: "mail@example.com?x",
  hash: "#fff",
  xml_markup: "<b>bold</b> & co",
  xml_entities: "&amp; &lt; &#13; &#x85; &nbsp;",
  cdata_end: "a]]>b",
  percent_two: "%s and %s",
  percent_positional: "%1$s and %2$d",
  percent_single: "100%",
  percent_escaped: "100%% sure, %s",
  percent_newline_arg: "%d%n",
  percent_reuse: "%1$s %<s",
  percent_time: "%s at %k",
  emoji: "😀👍🏽 ok 🏳️‍🌈",
  rtl_hebrew: "שלום עולם",
  rtl_arabic_marks: "\u200fمرحبا\u202e abc",
  yes: "yes",
  no: "No",
  on: "on",
  off: "OFF",
  y: "y",
  tilde: "~",
  null_word: "null",
  true_word: "true",
  int_word: "1",
  octal: "0777",
  float_word: "1.0",
  hex: "0x1F",
  exp: "1e3",
  sexagesimal: "1:20",
  inf: ".inf",
  nan: ".NaN",
  date: "2026-01-01",
  dash_item: "- item",
  colon_space: "a: b",
  leading_colon: ": x",
  comment: "# not a comment",
  inline_comment: "a #b",
  pipe: "|",
  folded: "> folded",
  alias: "*alias",
  anchor: "&anchor",
  tag: "!!int 3",
  doc_start: "---",
  doc_end: "...",
  merge: "<<",
  directive: "%TAG ! x",
  braces: "{a: 1}",
  brackets: "[1, 2]",
  comma: "a,b",
  csv_quoted: '"quoted", "again"',
  formula: "=SUM(A1:A2)",
  plus: "+1",
  minus: "-1",
  del_c1: "\x7f\x80\x85\x9f",
  nbsp: "\u00a0x\u00a0",
  line_separators: "a\u2028b\u2029c",
  bom: "\ufeffstart",
  ideographic_space: "\u3000y\u3000",
  combining: "\u0301e\u0301",
  private_use: "\ue000",
  max_code_point: "\u{10fffd}",
  replacement: "\ufffd",
  interpolation: "Hello {{name}}",
  nesting: '$t(other) and $t(x, {"a": 1})',
  long_text: "lorem ipsum ".repeat(12_000),
};

export const HARD_STATUSES: TranslationStatus[] = ["draft", "pending", "approved", "needs_review"];

/** Keys valid as Android resource names, each with a hard value and a hard source. */
export function androidFixture(): Entry[] {
  return Object.entries(HARD_VALUES).map(([key, value], i) => ({
    key,
    value,
    status: HARD_STATUSES[i % HARD_STATUSES.length],
    source: i % 5 === 0 ? undefined : `${value} (en)`,
  }));
}

/** Keys any export must carry too (XLIFF ids, YAML keys, CSV fields, Android names). */
export const HARD_KEYS: string[] = [
  "key with spaces",
  " lead.and.trail ",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "yes",
  "No",
  "1",
  "1.5",
  "~",
  "null",
  "<<",
  "a: b",
  "- x",
  "#c",
  "?q",
  "@at",
  'k"q',
  "k'q",
  "k,comma",
  "k\nnewline",
  "k\r\ncrlf",
  "k\ttab",
  "k\\backslash",
  "&amp;<>",
  "😀",
  "a.b.c",
  "ü",
  "ü.ü",
  ":",
  "a:3a:",
  "a b",
  "a:20:b",
  "\x85",
  "\x7f",
  "\u0301start",
  "-lead",
  "1abc",
  "\u2028",
  "\ufeff",
  "שלום",
  "x".repeat(1000),
  "é".repeat(1000),
  "😀".repeat(1000),
  `${"y".repeat(330)}${"😀".repeat(170)}`,
];

/** Every hard key with a hard value, and every hard value under `value.<name>`. */
export function hardFixture(): Entry[] {
  const values = Object.values(HARD_VALUES);
  const byKey = HARD_KEYS.map((key, i) => ({
    key,
    value: values[i % values.length] as string,
    status: HARD_STATUSES[i % HARD_STATUSES.length],
    source: i % 3 === 0 ? undefined : key,
  }));
  return [...byKey, ...androidFixture().map((e) => ({ ...e, key: `value.${e.key}` }))];
}

// ---- property-based generators ----

const FRAGMENTS = [
  ...new Set([
    ...Object.values(HARD_VALUES).filter((v) => v.length < 40),
    ...HARD_KEYS.filter((k) => k.length < 40),
    '"',
    "'",
    "\\",
    ",",
    "\n",
    "\r",
    "\r\n",
    "\t",
    " ",
    "  ",
    "@",
    "?",
    "%",
    "&",
    "<",
    ">",
    ".",
    ":",
    "\x7f",
    "\x80",
    "\x9f",
  ]),
];

const FORBIDDEN =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Only what push accepts: no C0 control other than TAB/LF/CR, no U+FFFE/U+FFFF, no lone surrogate. */
export function allowedText(s: string): string {
  return s.replace(FORBIDDEN, "");
}

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }).map(allowedText) },
);

export const textArb = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
export const keyArb = textArb.filter((k) => k.length > 0);

export const entriesArb = (key: fc.Arbitrary<string> = keyArb): fc.Arbitrary<Entry[]> =>
  fc.uniqueArray(
    fc.record({
      key,
      value: textArb,
      status: fc.constantFrom(...HARD_STATUSES),
      source: fc.option(textArb, { nil: undefined }),
    }),
    { minLength: 1, maxLength: 20, selector: (e) => e.key },
  );

/** Keys aapt accepts as resource names. */
export const androidKeyArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);

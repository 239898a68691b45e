import { CHUNK_LENGTH, defineFormatter } from "./formatter.ts";
import { escapeXmlAttr, xmlCharEntity } from "./xml-escape.ts";

const SPECIAL = /[\\'"\n\t\r&<>\x7f-\x9f]/;
const SPECIAL_ALL = /[\\'"\n\t\r&<>\x7f-\x9f]/g;

function androidChar(ch: string): string {
  switch (ch) {
    case "\\":
      return "\\\\";
    case "'":
      return "\\'";
    case '"':
      return '\\"';
    case "\n":
      return "\\n";
    case "\t":
      return "\\t";
    case "\r":
      // aapt collapses a literal CR (even as &#13;) into a space, like any other ASCII whitespace.
      return "\\u000d";
    default:
      return xmlCharEntity(ch);
  }
}

/**
 * A value as the content of `<string>`: Android's backslash escapes, then XML's. A leading `@` or
 * `?` would make aapt read a reference. After escaping, the only literal whitespace left is the
 * space, which aapt trims at the ends and collapses in runs unless the text is in double quotes.
 */
export function escapeAndroidString(value: string): string {
  let s = SPECIAL.test(value) ? value.replace(SPECIAL_ALL, androidChar) : value;
  const first = s.charCodeAt(0);
  if (first === 0x40 || first === 0x3f) s = `\\${s}`;
  if (s.startsWith(" ") || s.endsWith(" ") || s.includes("  ")) s = `"${s}"`;
  return s;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const FLAG_CHARS = "-#+ ,(0123456789";
const TIME_CONVERSIONS = "DFKMWZkmwyz";

/**
 * aapt's check (verifyJavaStringFormat) that refuses a `<string>` with two or more format
 * arguments when any is non-positional (`%s and %s`). aapt2 skips `%n`, aapt 1 counts it; this
 * follows either with `percentN`.
 */
function failsFormatCheck(s: string, percentN: boolean): boolean {
  const end = s.length;
  let args = 0;
  let nonPositional = false;
  let i = 0;
  while (i !== end) {
    if (s.charCodeAt(i) === 0x25 && i + 1 < end) {
      i++;
      const c = s[i];
      if (c === "%" || (percentN && c === "n")) {
        i++;
        continue;
      }
      args++;
      const digitsFrom = i;
      while (i !== end && isDigit(s.charCodeAt(i))) i++;
      if (i > digitsFrom) {
        if (i !== end && s[i] !== "$") nonPositional = true;
      } else if (c === "<") {
        nonPositional = true;
        i++;
        if (i !== end && s[i] === "$") i++;
      } else {
        nonPositional = true;
      }
      while (i !== end && FLAG_CHARS.includes(s[i] as string)) i++;
      // A Time.format() pattern: aapt accepts the whole string.
      if (i !== end && TIME_CONVERSIONS.includes(s[i] as string)) return false;
    }
    if (i !== end) i++;
  }
  return args > 1 && nonPositional;
}

/**
 * True when aapt or aapt2 would refuse the value as a format string; such a `<string>` gets
 * `formatted="false"`, which only turns that check off (the text is unchanged).
 */
export function needsUnformatted(value: string): boolean {
  const first = value.indexOf("%");
  if (first === -1 || value.indexOf("%", first + 1) === -1) return false;
  return failsFormatCheck(value, false) || failsFormatCheck(value, true);
}

/** Android string resources (res/values/strings.xml); `name` holds the key as it is. */
export const androidXmlFormatter = defineFormatter({
  name: "xml",
  contentType: "application/xml; charset=utf-8",
  extension: "xml",
  needsSource: false,
  *chunks({ rows }) {
    let out = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n';
    for (const r of rows) {
      const attrs = needsUnformatted(r.value) ? '" formatted="false">' : '">';
      out += `  <string name="${escapeXmlAttr(r.key)}${attrs}${escapeAndroidString(r.value)}</string>\n`;
      if (out.length >= CHUNK_LENGTH) {
        yield out;
        out = "";
      }
    }
    yield `${out}</resources>\n`;
  },
});

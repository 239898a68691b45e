import { asArray, CHUNK_LENGTH, defineFormatter } from "./formatter.ts";

// `"` and `\`, C0 controls, DEL and C1 (not printable in YAML, U+0085 is a YAML 1.1 line break),
// U+2028/U+2029 (YAML 1.1 line breaks), U+FEFF (a byte order mark inside a document).
const SPECIAL = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
const SPECIAL_ALL = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/g;

function yamlEscape(ch: string): string {
  switch (ch) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    default: {
      const code = ch.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
    }
  }
}

/**
 * A double-quoted scalar on one line. Every YAML 1.1 and 1.2 reader (libyaml/Psych, the `yaml`
 * package) reads it as exactly this string: quoting rules out `yes`, `~`, `1e3`, `<<` and the like,
 * and the escapes used (`\" \\ \t \n \r \xHH \uHHHH`) exist in both versions.
 */
function quote(s: string): string {
  return `"${SPECIAL.test(s) ? s.replace(SPECIAL_ALL, yamlEscape) : s}"`;
}

// YAML limits an implicit key to 1024 characters (libyaml may count bytes); longer keys use `? `.
const SIMPLE_KEY_MAX_BYTES = 1000;

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair counts 2 + 2 = 4 bytes.
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
  }
  return n;
}

/** Flat block mapping of the same keys as `json`, in the caller's order, keys and values double-quoted. */
export const yamlFormatter = defineFormatter({
  name: "yaml",
  contentType: "application/yaml; charset=utf-8",
  extension: "yaml",
  needsSource: false,
  *chunks(input) {
    const rows = asArray(input.rows);
    if (rows.length === 0) {
      yield "{}\n";
      return;
    }
    let out = "";
    for (const r of rows) {
      const key = quote(r.key);
      // UTF-8 takes at most 3 bytes per UTF-16 unit, so short keys skip the count.
      const simple = key.length * 3 <= SIMPLE_KEY_MAX_BYTES || utf8Length(key) <= SIMPLE_KEY_MAX_BYTES;
      out += simple ? `${key}: ${quote(r.value)}\n` : `? ${key}\n: ${quote(r.value)}\n`;
      if (out.length >= CHUNK_LENGTH) {
        yield out;
        out = "";
      }
    }
    yield out;
  },
});

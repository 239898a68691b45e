import { CHUNK_LENGTH, defineFormatter } from "./formatter.ts";

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 field: quoted (quotes doubled) only when it holds `,` `"` CR or LF; never altered otherwise. */
function field(s: string): string {
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * RFC 4180: header `key,<language>`, one row per key, CRLF after every row (the last included),
 * UTF-8; `bom` prepends U+FEFF (for spreadsheet programs that guess the encoding otherwise).
 */
export const csvFormatter = defineFormatter({
  name: "csv",
  contentType: "text/csv; charset=utf-8",
  extension: "csv",
  needsSource: false,
  *chunks({ language, rows, options }) {
    let out = `${options.bom ? "\uFEFF" : ""}key,${field(language)}\r\n`;
    for (const r of rows) {
      out += `${field(r.key)},${field(r.value)}\r\n`;
      if (out.length >= CHUNK_LENGTH) {
        yield out;
        out = "";
      }
    }
    yield out;
  },
});

import { asArray, CHUNK_LENGTH, defineFormatter } from "./formatter.ts";

/** Flat object of dot-separated keys, keys sorted by the caller, 2-space indent, final newline. */
export const jsonFormatter = defineFormatter({
  name: "json",
  contentType: "application/json; charset=utf-8",
  extension: "json",
  needsSource: false,
  *chunks(input) {
    const rows = asArray(input.rows);
    // Written by hand: an object literal would reorder integer-like keys ("1" before "a").
    if (rows.length === 0) {
      yield "{}\n";
      return;
    }
    let out = "{\n";
    const last = rows.length - 1;
    for (let i = 0; i < last; i++) {
      const r = rows[i] as (typeof rows)[number];
      out += `  ${JSON.stringify(r.key)}: ${JSON.stringify(r.value)},\n`;
      if (out.length >= CHUNK_LENGTH) {
        yield out;
        out = "";
      }
    }
    const r = rows[last] as (typeof rows)[number];
    yield `${out}  ${JSON.stringify(r.key)}: ${JSON.stringify(r.value)}\n}\n`;
  },
});

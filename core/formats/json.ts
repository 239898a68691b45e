import type { Formatter } from "./formatter.ts";

/** Flat object of dot-separated keys, keys sorted by the caller, 2-space indent, final newline. */
export const jsonFormatter: Formatter = {
  name: "json",
  contentType: "application/json; charset=utf-8",
  extension: "json",
  needsSource: false,
  render({ rows }) {
    // Built by hand: an object literal would reorder integer-like keys ("1" before "a").
    if (rows.length === 0) return "{}\n";
    const parts = rows.map((r) => `  ${JSON.stringify(r.key)}: ${JSON.stringify(r.value)}`);
    return `{\n${parts.join(",\n")}\n}\n`;
  },
};

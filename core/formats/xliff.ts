import { defineFormatter } from "./formatter.ts";
import { xliff12Chunks, xliff12Units } from "./xliff-12.ts";
import { xliff20Chunks, xliff20Units } from "./xliff-20.ts";

/** XLIFF 1.2 by default, 2.0 with `xliff_version=2.0`; both carry base-language sources. */
export const xliffFormatter = defineFormatter({
  name: "xliff",
  contentType: "application/xliff+xml; charset=utf-8",
  extension: "xlf",
  needsSource: true,
  chunks(input) {
    return input.options.xliffVersion === "2.0" ? xliff20Chunks(input) : xliff12Chunks(input);
  },
  units(input) {
    return input.options.xliffVersion === "2.0" ? xliff20Units(input) : xliff12Units(input);
  },
});

import type { Formatter } from "./formatter.ts";
import { renderXliff12 } from "./xliff-12.ts";
import { renderXliff20 } from "./xliff-20.ts";

/** XLIFF 1.2 by default, 2.0 with `xliff_version=2.0`; both carry base-language sources. */
export const xliffFormatter: Formatter = {
  name: "xliff",
  contentType: "application/xliff+xml; charset=utf-8",
  extension: "xlf",
  needsSource: true,
  render(input) {
    return input.options.xliffVersion === "2.0" ? renderXliff20(input) : renderXliff12(input);
  },
};

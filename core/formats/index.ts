import { androidXmlFormatter } from "./android-xml.ts";
import { csvFormatter } from "./csv.ts";
import type { Formatter } from "./formatter.ts";
import { jsonFormatter } from "./json.ts";
import { xliffFormatter } from "./xliff.ts";
import { yamlFormatter } from "./yaml.ts";

export type { ExportInput, ExportOptions, ExportRow, Formatter } from "./formatter.ts";
export { chunksOfPages } from "./formatter.ts";

/** Every export format by its `format` query value. */
export const FORMATTERS: ReadonlyMap<string, Formatter> = new Map(
  [jsonFormatter, csvFormatter, xliffFormatter, androidXmlFormatter, yamlFormatter].map((f) => [f.name, f]),
);

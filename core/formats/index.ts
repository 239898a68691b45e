import type { Formatter } from "./formatter.ts";
import { jsonFormatter } from "./json.ts";

export type { ExportInput, ExportOptions, ExportRow, Formatter } from "./formatter.ts";

/** Every export format by its `format` query value. */
export const FORMATTERS: ReadonlyMap<string, Formatter> = new Map([[jsonFormatter.name, jsonFormatter]]);

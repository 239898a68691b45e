import type { Project, TranslationRow } from "../types.ts";

/** One exported row: what every format writes. */
export type ExportRow = TranslationRow;

/** Query options a format may read (`bom`, `xliff_version`), already validated. */
export interface ExportOptions {
  bom: boolean;
  xliffVersion: "1.2" | "2.0";
}

export interface ExportInput {
  project: Project;
  language: string;
  /** In ascending code-point order of key, environment overrides applied. */
  rows: ExportRow[];
  /** Base-language value by key; only filled for formats that declare `needsSource`. */
  sources: Map<string, string>;
  options: ExportOptions;
}

/** A pure function of the rows, the project and the language. */
export interface Formatter {
  /** The `format` query value. */
  readonly name: string;
  /** Full Content-Type header value, charset included. */
  readonly contentType: string;
  /** File extension without the dot. */
  readonly extension: string;
  /** True when the format writes base-language values beside the translations (XLIFF). */
  readonly needsSource: boolean;
  render(input: ExportInput): string;
}

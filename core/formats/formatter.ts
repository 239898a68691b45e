import type { Project, TranslationRow } from "../types.ts";

/**
 * One exported row: what every format writes (no format writes `id`). `source`, the base-language value of the key, is
 * given by stores that read it along (`listForExportWithSource`); formats with `needsSource` take
 * it before `ExportInput.sources`.
 */
export type ExportRow = Omit<TranslationRow, "id"> & { id?: string; source?: string | null };

/** Query options a format may read (`bom`, `xliff_version`), already validated. */
export interface ExportOptions {
  bom: boolean;
  xliffVersion: "1.2" | "2.0";
}

export interface ExportInput {
  project: Project;
  language: string;
  /**
   * In ascending code-point order of key, environment overrides applied. An array, or for
   * formats with `needsSource` possibly rows still being read (see `asArray` for the others).
   */
  rows: Iterable<ExportRow>;
  /**
   * Base-language value by key, for formats that declare `needsSource`, when the rows do not carry
   * their `source` (empty when they do).
   */
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
  /**
   * The file in consecutive pieces of about `CHUNK_LENGTH` UTF-16 units (the last one shorter), so
   * a server can send the first bytes before the last row is written. Joined, they are `render`.
   */
  chunks(input: ExportInput): Iterable<string>;
  /** The whole file. */
  render(input: ExportInput): string;
}

/**
 * How long a piece of `chunks` grows before it is handed out: large enough that the per-piece cost
 * (a generator step, one UTF-8 encoding, one socket write) is noise, small enough to stay in cache.
 */
export const CHUNK_LENGTH = 64 * 1024;

/** The rows as an array, for a format that needs their count or indexes. */
export const asArray = <T>(rows: Iterable<T>): readonly T[] => (Array.isArray(rows) ? rows : [...rows]);

/** A formatter from its pieces: `render` is their concatenation. */
export function defineFormatter(f: Omit<Formatter, "render">): Formatter {
  return {
    ...f,
    render(input) {
      let out = "";
      for (const piece of f.chunks(input)) out += piece;
      return out;
    },
  };
}

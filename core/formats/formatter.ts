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
  /**
   * The same file as a head, one unit per row and a tail, for rows that arrive in pages while the
   * file is sent (`chunksOfPages`). Optional: only formats whose rows a store reads while sending.
   */
  units?(input: UnitInput): UnitWriter;
}

/** What a format's units depend on besides the rows. */
export type UnitInput = Omit<ExportInput, "rows">;

/** A file written unit by unit: `head`, then `unit` of each row in order, then `tail`. */
export interface UnitWriter {
  readonly head: string;
  unit(row: ExportRow): string;
  /** The end of the file, after `count` units. */
  tail(count: number): string;
}

/**
 * How long a piece of `chunks` grows before it is handed out: large enough that the per-piece cost
 * (a generator step, one UTF-8 encoding, one socket write) is noise, small enough to stay in cache.
 */
export const CHUNK_LENGTH = 64 * 1024;

/** The file of `writer` over `rows`, in pieces of about `CHUNK_LENGTH` units. */
export function* chunksOf(writer: UnitWriter, rows: Iterable<ExportRow>): Generator<string> {
  let out = writer.head;
  let count = 0;
  for (const r of rows) {
    out += writer.unit(r);
    count++;
    if (out.length >= CHUNK_LENGTH) {
      yield out;
      out = "";
    }
  }
  yield out + writer.tail(count);
}

/**
 * `chunksOf` over rows given in pages as they are read: the same pieces, each given as soon as its
 * rows are there. `mapRow` (environment overrides) is applied to each row on the way.
 */
export async function* chunksOfPages(
  writer: UnitWriter,
  pages: AsyncIterable<readonly ExportRow[]>,
  mapRow: (row: ExportRow) => ExportRow = (row) => row,
): AsyncGenerator<string> {
  let out = writer.head;
  let count = 0;
  for await (const page of pages) {
    for (const r of page) {
      out += writer.unit(mapRow(r));
      count++;
      if (out.length >= CHUNK_LENGTH) {
        yield out;
        out = "";
      }
    }
  }
  yield out + writer.tail(count);
}

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

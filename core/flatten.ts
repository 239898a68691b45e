import { type RowSink, readContent, readContentInSlices } from "./content-reader.ts";
import { contentTooLarge, MAX_CONTENT_BYTES } from "./content-rules.ts";
import type { ImportRows } from "./import-plan.ts";
import { encodeText } from "./json-bytes.ts";
import { nextTurn, SLICE_MS } from "./next-turn.ts";
import { utf8Length } from "./text.ts";

export {
  MAX_CONTENT_BYTES,
  MAX_DEPTH,
  MAX_KEY_CODE_POINTS,
  MAX_ROWS,
  requireRow,
} from "./content-rules.ts";

/**
 * A push's content as UTF-8 bytes: as received (the server hands the body's bytes), or encoded
 * from text (library callers). Throws the 413 before encoding text that cannot fit.
 */
export function contentBytes(content: string | Uint8Array): Uint8Array {
  if (typeof content !== "string") return content;
  // Every UTF-16 unit is at least one UTF-8 byte: a longer text cannot fit, whatever it holds.
  if (content.length > MAX_CONTENT_BYTES) throw contentTooLarge(utf8Length(content));
  return encodeText(content);
}

/** Key → value of a content, with the sink that fills it. */
function rowsSink(): { rows: Map<string, string>; sink: RowSink } {
  const rows = new Map<string, string>();
  const sink: RowSink = {
    wantsValues: true,
    // One lookup instead of has + set: a repeated key fails the whole content, so the value it
    // overwrote is never used.
    add(key, value) {
      const size = rows.size;
      rows.set(key, value as string);
      return rows.size > size;
    },
  };
  return { rows, sink };
}

/**
 * The rows a push reads to hand its job: keys and values in two arrays, in the content's order.
 * A map of 50,000 rows is 3.3 MiB alive (and the tables it outgrew as garbage) against 0.9 for
 * the arrays, at a 12 MB push's peak (docs/benchmarks.md, "Push memory, eleventh pass"). Keys are
 * checked for repeats with a set only once the reader says a key may repeat (`RowSink.mayRepeat`):
 * most contents have no dot in any name and never need one.
 */
export class ContentRows implements ImportRows {
  private readonly keys: string[] = [];
  private readonly values: string[] = [];
  private seen: Set<string> | null = null;

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    this.seen ??= new Set(this.keys);
    return this.seen.has(key);
  }

  forEach(each: (value: string, key: string) => void): void {
    const { keys, values } = this;
    for (let i = 0; i < keys.length; i++) each(values[i] as string, keys[i] as string);
  }

  forEachFrom(from: number, each: (value: string, key: string) => boolean): number {
    const { keys, values } = this;
    let i = from;
    while (i < keys.length) if (!each(values[i] as string, keys[i++] as string)) break;
    return i;
  }

  /** The sink that fills these rows. */
  sink(): RowSink {
    return {
      wantsValues: true,
      add: (key, value) => {
        const seen = this.seen;
        if (seen) {
          const size = seen.size;
          if (seen.add(key).size === size) return false;
        }
        this.keys.push(key);
        this.values.push(value as string);
        return true;
      },
      mayRepeat: () => {
        this.seen ??= new Set(this.keys);
      },
    };
  }
}

/** Only the keys (two inputs for one key are refused). */
function keysSink(): RowSink {
  const keys = new Set<string>();
  return {
    wantsValues: false,
    add(key) {
      const size = keys.size;
      keys.add(key);
      return keys.size > size;
    },
  };
}

/**
 * Parses a push's content and flattens it into key → value (CONTRACT §6). Throws 413 past the
 * size or row limits and 400 for anything no export could carry (core/content-reader.ts).
 */
export function parseContent(content: string | Uint8Array): Map<string, string> {
  const { rows, sink } = rowsSink();
  readContent(contentBytes(content), sink);
  return rows;
}

/**
 * Checks a push's content as `parseContent` does, keeping only the keys (two inputs for one key
 * are refused): what a push holds in memory before its job is stored. Returns the row count.
 */
export function validateContent(content: Uint8Array): number {
  return readContent(content, keysSink());
}

/**
 * `parseContent` of bytes, giving the event loop a turn every SLICE_MS (core/next-turn.ts): what a
 * request does, so that other requests are answered while a 12 MB push is read. `whileReading`
 * runs once per READING_PACE_BYTES read (the server collects the young generation there: see
 * ParlanceOptions.whileReadingContent).
 */
export async function parseContentInSlices(
  content: Uint8Array,
  whileReading?: () => void,
): Promise<ContentRows> {
  const rows = new ContentRows();
  await readContentInSlices(content, rows.sink(), nextTurn, SLICE_MS, pacedBy(whileReading));
  return rows;
}

/** `validateContent`, giving the event loop a turn every SLICE_MS. */
export function validateContentInSlices(content: Uint8Array, whileReading?: () => void): Promise<number> {
  return readContentInSlices(content, keysSink(), nextTurn, SLICE_MS, pacedBy(whileReading));
}

/**
 * Content read between two runs of `whileReading`: about as often as a machine three times slower
 * than the bench's collected at its 32 ms pace (docs/benchmarks.md, "Push memory between pushes,
 * twelfth pass"), where a faster one, paced by the clock, read 12 MB in a few slices and collected
 * once or twice. Smaller contents are read without it.
 */
export const READING_PACE_BYTES = 1_500_000;

const pacedBy = (run: (() => void) | undefined) => (run ? { bytes: READING_PACE_BYTES, run } : undefined);

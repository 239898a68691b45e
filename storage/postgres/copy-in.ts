import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PendingQuery, Row } from "postgres";

/** A field of COPY's text format: `\N` for NULL; backslash, tab, newline and CR escaped. */
export function copyField(value: string | null): string {
  if (value === null) return "\\N";
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? c) : value;
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/**
 * Streams `lines` (COPY text format, each ending in a newline) into `COPY … FROM STDIN`, and
 * settles with the server's answer. postgres.js 3.4 settles neither the stream nor the query when
 * the server refuses the data after its last line (a unique violation found at the end, a lost
 * connection: porsager/postgres#1173); that refusal reaches only the query's `reject`, which is
 * watched here, so it rejects this call instead of leaving it pending for ever.
 */
export async function copyIn(query: PendingQuery<Row[]>, lines: Iterable<string>): Promise<void> {
  const watched = query as unknown as { reject: (e: unknown) => void };
  const reject = watched.reject;
  const refused = new Promise<never>((_, fail) => {
    watched.reject = (e) => {
      fail(e);
      reject(e);
    };
  });
  refused.catch(() => {}); // also refused when the COPY itself is: writable() rejects then
  const stream = await query.writable();
  await Promise.race([pipeline(Readable.from(chunked(lines)), stream), refused]);
}

/** About 256 KiB per CopyData message: a message per line would cost more than the line. */
function* chunked(lines: Iterable<string>): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const line of lines) {
    parts.push(line);
    size += line.length;
    if (size >= 256 * 1024) {
      yield parts.join("");
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join("");
}

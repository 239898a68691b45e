/**
 * Work run while a push's content is read is paced by the bytes read, not by the clock
 * (core/content-reader.ts `ReadingPace`, core/flatten.ts `READING_PACE_BYTES`): a fast machine
 * reading 12 MB in a few slices runs it as often as a slow one reading it in many.
 */
import { expect, test } from "bun:test";
import { type RowSink, readContent, readContentInSlices } from "../../core/content-reader.ts";
import { parseContentInSlices, READING_PACE_BYTES, validateContentInSlices } from "../../core/flatten.ts";

const rowsOf = () => {
  const rows: [string, string | null][] = [];
  const sink: RowSink = {
    wantsValues: true,
    add(key, value) {
      rows.push([key, value]);
      return true;
    },
  };
  return { rows, sink };
};

/** About `bytes` of content: rows of 200-character values. */
const contentOf = (bytes: number) => {
  const rows = Math.ceil(bytes / 220);
  const text = `{${Array.from({ length: rows }, (_, i) => `"k${i}":"${"v".repeat(200)}"`).join(",")}}`;
  return new TextEncoder().encode(text);
};

const resolved = () => Promise.resolve();

test("the pace runs once per its bytes read, whether the slices are many or one", async () => {
  const bytes = contentOf(2_000_000);
  // Longer than the reader's look at the pace (every 1,024 values, about 225 KB here), so a pace
  // run at every look (about nine) would be told from one run per step's bytes (two or three).
  const step = 500_000;
  const expected = readContent(bytes, rowsOf().sink);
  for (const sliceMs of [0, 1e9]) {
    const read = rowsOf();
    const at: number[] = [];
    const pace = { bytes: step, run: () => void at.push(at.length) };
    expect(await readContentInSlices(bytes, read.sink, resolved, sliceMs, pace)).toBe(expected);
    // At most one run per look, none before its step's bytes were read.
    expect(at.length).toBeGreaterThanOrEqual(2);
    expect(at.length).toBeLessThanOrEqual(Math.floor(bytes.length / step));
    const once = rowsOf();
    readContent(bytes, once.sink);
    expect(read.rows).toEqual(once.rows);
  }
});

test("a push's content is paced by READING_PACE_BYTES when parsed or validated, and a smaller one not at all", async () => {
  const large = contentOf(4.5 * READING_PACE_BYTES);
  for (const read of [parseContentInSlices, validateContentInSlices]) {
    let runs = 0;
    await read(large, () => void runs++);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(4);
    runs = 0;
    // Read over several slices and turns, yet not a pace's worth of bytes.
    await read(contentOf(0.8 * READING_PACE_BYTES), () => void runs++);
    expect(runs).toBe(0);
  }
});

/**
 * A push's content read in slices (core/content-reader.ts `readContentInSlices`, as a request reads
 * it) gives the same rows in the same order, and the same error, as the reader in one pass.
 */
import { expect, test } from "bun:test";
import { type RowSink, readContent, readContentInSlices } from "../../core/content-reader.ts";

const recorder = (wantsValues: boolean) => {
  const rows: [string, string | null][] = [];
  const keys = new Set<string>();
  const sink: RowSink = {
    wantsValues,
    add(key, value) {
      rows.push([key, value]);
      const size = keys.size;
      keys.add(key);
      return keys.size > size;
    },
  };
  return { rows, sink };
};

const outcome = async (read: () => number | Promise<number>) => {
  try {
    return { count: await read() };
  } catch (e) {
    return { error: String(e), details: (e as { details?: unknown }).details };
  }
};

/** Both readers on `text`; pauses at every look (a slice of 0 ms), counted. */
async function compare(text: string, wantsValues = true) {
  const bytes = new TextEncoder().encode(text);
  const one = recorder(wantsValues);
  const sliced = recorder(wantsValues);
  let pauses = 0;
  const pause = async () => {
    pauses++;
    await Promise.resolve();
  };
  const a = await outcome(() => readContent(bytes, one.sink));
  const b = await outcome(() => readContentInSlices(bytes, sliced.sink, pause, 0));
  expect(b).toEqual(a);
  expect(sliced.rows).toEqual(one.rows);
  return { outcome: a, pauses };
}

const many = (n: number, at = (i: number) => `"v${i}"`) =>
  Array.from({ length: n }, (_, i) => `"k${i}": {"a": ${at(i)}, "b": [1, true, null]}`).join(",\n");

test("a large content: the same rows, read over many slices", async () => {
  const { outcome, pauses } = await compare(`{${many(5_000)}}`);
  expect(outcome).toEqual({ count: 20_000 });
  expect(pauses).toBeGreaterThan(10);
  await compare(`{${many(5_000)}}`, false);
});

test("errors past the first slice: the same error, with the same line and column", async () => {
  for (const text of [
    `{${many(3_000)}, "x": tru}`,
    `{${many(3_000)}, "x": "a\\qb"}`,
    `{${many(3_000)}`,
    `{${many(3_000)}} []`,
    `{${many(3_000)}, "": "empty key"}`,
    `{${many(3_000)}, "k10": "repeated"}`,
    `{${many(3_000, (i) => (i === 2_500 ? `"\\ud800"` : `"v${i}"`))}}`,
    `{${many(3_000, (i) => (i === 2_900 ? "1e999" : `"v${i}"`))}}`,
    `{${many(13_000)}}`,
    `[${many(2_000).replaceAll(":", ",")}]`,
    "",
  ]) {
    const { outcome } = await compare(text);
    expect(outcome).toHaveProperty("error");
  }
});

test("a small content is read without waiting for a turn, with the same rows and errors", async () => {
  const small = await compare(`{${many(50)}}`);
  expect(small).toEqual({ outcome: { count: 200 }, pauses: 0 });
  const broken = await compare(`{${many(50)}, "x": tru}`);
  expect(broken.pauses).toBe(0);
  expect(broken.outcome).toHaveProperty("error");
});

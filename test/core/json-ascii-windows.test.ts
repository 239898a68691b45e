/**
 * core/json-ascii.ts reads ASCII strings from decoded windows of the content: strings that straddle
 * a window's end, longer than a window, in a window holding bytes past ASCII or escapes all read
 * exactly as the text says.
 */
import { expect, test } from "bun:test";
import { readContent } from "../../core/content-reader.ts";

test("every string of a multi-window content, whatever window it falls in", () => {
  const entries: [string, string][] = [];
  for (let i = 0; i < 30_000; i++) {
    const kind = i % 7;
    const value =
      kind === 0
        ? `plain value ${i} ${"x".repeat(i % 300)}`
        : kind === 1 && i % 1000 < 400
          ? `café ${i} 😀`
          : kind === 2
            ? `quote " and backslash \\ ${i}\n`
            : `v${i}`;
    entries.push([`key_${i}.${kind}`, value]);
  }
  entries.splice(
    15_000,
    0,
    ["long.ascii", "a".repeat(1_500_000)],
    ["long.mixed", `${"b".repeat(1_200_000)}é`],
  );
  const text = JSON.stringify(Object.fromEntries(entries));
  expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
  const rows: [string, string | null][] = [];
  const count = readContent(new TextEncoder().encode(text), {
    wantsValues: true,
    add(key, value) {
      rows.push([key, value]);
      return true;
    },
  });
  expect(count).toBe(entries.length);
  expect(rows).toEqual(entries);
});

import { describe, expect, test } from "bun:test";
import { VARIANTS } from "./support/formats.ts";
import type { Entry } from "./support/input.ts";
import { expectedPairs, exportInput } from "./support/input.ts";

/** The push limit: 50,000 rows, with a few values that need escaping in every format. */
function largeEntries(): Entry[] {
  const entries: Entry[] = [];
  for (let i = 0; i < 50_000; i++) {
    const value =
      i % 100 === 0 ? `Line ${i}\n"quoted", it's <b>&</b>\r\x85` : `Value number ${i} for the screen`;
    entries.push({ key: `screen${i % 50}.section${i % 7}.label_${i}`, value, source: `Source ${i}` });
  }
  return entries;
}

describe("50,000 keys", () => {
  const entries = largeEntries();
  for (const v of VARIANTS) {
    test(`${v.label} exports and reads back every key`, () => {
      const input = exportInput(entries, v.options);
      const text = v.formatter.render(input);
      expect(v.read(text, input)).toEqual(expectedPairs(input));
    }, 30_000);
  }
});

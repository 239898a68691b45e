import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FORMATTERS } from "../../core/formats/index.ts";
import { entriesArb, hardFixture } from "./support/data.ts";
import { VARIANTS } from "./support/formats.ts";
import { expectedPairs, exportInput } from "./support/input.ts";

describe("every format gives back exactly the exported keys and values", () => {
  test("all five formats are registered with CONTRACT §7 media types and extensions", () => {
    const table = [...FORMATTERS.values()].map((f) => [f.name, f.contentType, f.extension, f.needsSource]);
    expect(table).toEqual([
      ["json", "application/json; charset=utf-8", "json", false],
      ["csv", "text/csv; charset=utf-8", "csv", false],
      ["xliff", "application/xliff+xml; charset=utf-8", "xlf", true],
      ["xml", "application/xml; charset=utf-8", "xml", false],
      ["yaml", "application/yaml; charset=utf-8", "yaml", false],
    ]);
  });

  for (const v of VARIANTS) {
    test(`${v.label}: hard fixture`, () => {
      const input = exportInput(hardFixture(), v.options);
      expect(v.read(v.formatter.render(input), input)).toEqual(expectedPairs(input));
    });

    test(`${v.label}: generated keys and values`, () => {
      fc.assert(
        fc.property(entriesArb(), (entries) => {
          const input = exportInput(entries, v.options);
          expect(v.read(v.formatter.render(input), input)).toEqual(expectedPairs(input));
        }),
        { numRuns: 150 },
      );
    });
  }
});

import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { csvFormatter } from "../../core/formats/csv.ts";
import { entriesArb, hardFixture } from "./support/data.ts";
import { type Entry, expectedPairs, exportInput } from "./support/input.ts";
import { readCsv } from "./support/readers.ts";
import { PYTHON, pythonCsv, scratch, testWith } from "./support/tools.ts";

describe("csv", () => {
  test("RFC 4180 shape: header, quoting only where needed, CRLF, no BOM (CONTRACT §10)", () => {
    const out = csvFormatter.render(
      exportInput([
        { key: "c", value: " =1+2 " },
        { key: "b,1", value: 'say "hi"' },
        { key: "a", value: "x\r\ny\rz\n" },
        { key: "d", value: "" },
      ]),
    );
    expect(out).toBe('key,fr\r\na,"x\r\ny\rz\n"\r\n"b,1","say ""hi"""\r\nc, =1+2 \r\nd,\r\n');
  });

  test("bom=true prepends U+FEFF and nothing else", () => {
    const entries: Entry[] = [{ key: "k", value: "v" }];
    const plain = csvFormatter.render(exportInput(entries));
    expect(csvFormatter.render(exportInput(entries, { bom: true }))).toBe(`\uFEFF${plain}`);
    expect(plain.charCodeAt(0)).toBe("k".charCodeAt(0));
  });

  test("csv-parse gives back exactly the keys and values", () => {
    for (const bom of [false, true]) {
      const input = exportInput(hardFixture(), { bom });
      expect(readCsv(csvFormatter.render(input), "fr")).toEqual(expectedPairs(input));
    }
  });

  testWith(
    [PYTHON],
    "Python's csv module gives back exactly the keys and values, with and without BOM",
    () => {
      const docs = [hardFixture(), ...fc.sample(entriesArb(), { numRuns: 50, seed: 3 })];
      const variants = docs.flatMap((d, i) => [
        { name: `doc-${i}.csv`, input: exportInput(d, { bom: false }) },
        { name: `doc-${i}-bom.csv`, input: exportInput(d, { bom: true }) },
      ]);
      const s = scratch(Object.fromEntries(variants.map((v) => [v.name, csvFormatter.render(v.input)])));
      try {
        const read = pythonCsv(s.paths);
        expect(read).toEqual(
          variants.map((v) => ({
            bom: v.input.options.bom,
            rows: [["key", "fr"], ...expectedPairs(v.input)],
          })),
        );
      } finally {
        s.done();
      }
    },
  );
});

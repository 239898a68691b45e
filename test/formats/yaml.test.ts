import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { yamlFormatter } from "../../core/formats/yaml.ts";
import { entriesArb, HARD_KEYS, hardFixture } from "./support/data.ts";
import { type Entry, expectedPairs, exportInput } from "./support/input.ts";
import { readYaml } from "./support/readers.ts";
import { RUBY, rubyYaml, scratch, testWith } from "./support/tools.ts";

function render(entries: Entry[]): string {
  return yamlFormatter.render(exportInput(entries));
}

describe("yaml", () => {
  test("flat mapping of double-quoted keys and values (CONTRACT §10)", () => {
    expect(
      render([
        { key: "yes", value: "no" },
        { key: "a.b", value: 'say "hi"\\\n\t\r' },
        { key: "~", value: "\x7f\x85\u2028\ufeff😀" },
      ]),
    ).toBe('"a.b": "say \\"hi\\"\\\\\\n\\t\\r"\n"yes": "no"\n"~": "\\x7f\\x85\\u2028\\ufeff😀"\n');
    expect(render([])).toBe("{}\n");
  });

  test("keys past YAML's 1024-character implicit key limit are written as explicit keys", () => {
    const long = "😀".repeat(1000);
    expect(render([{ key: long, value: "v" }])).toBe(`? "${long}"\n: "v"\n`);
    expect(render([{ key: "x".repeat(998), value: "v" }])).toBe(`"${"x".repeat(998)}": "v"\n`);
  });

  for (const version of ["1.1", "1.2"] as const) {
    test(`the yaml package (YAML ${version}) gives back exactly the keys and values`, () => {
      const check = (entries: Entry[]) => {
        const input = exportInput(entries);
        expect(readYaml(yamlFormatter.render(input), version)).toEqual(expectedPairs(input));
      };
      check(hardFixture());
      fc.assert(fc.property(entriesArb(), check), { numRuns: 150 });
    });
  }

  testWith([RUBY], "Ruby's YAML (Psych, YAML 1.1) gives back exactly the keys and values", () => {
    const docs = [
      hardFixture(),
      HARD_KEYS.map((key) => ({ key, value: key })),
      ...fc.sample(entriesArb(), { numRuns: 50, seed: 5 }),
    ];
    const s = scratch(Object.fromEntries(docs.map((d, i) => [`doc-${i}.yaml`, render(d)])));
    try {
      expect(rubyYaml(s.paths)).toEqual(docs.map((d) => expectedPairs(exportInput(d))));
    } finally {
      s.done();
    }
  });
});

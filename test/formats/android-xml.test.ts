import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  androidXmlFormatter,
  escapeAndroidString,
  needsUnformatted,
} from "../../core/formats/android-xml.ts";
import { androidFixture, androidKeyArb, entriesArb, HARD_VALUES, hardFixture } from "./support/data.ts";
import { type Entry, expectedPairs, exportInput } from "./support/input.ts";
import { type AndroidString, decodeAndroidString, readAndroid } from "./support/readers.ts";
import { AAPT, aaptCompile, PYTHON, pythonXml, scratch, testWith } from "./support/tools.ts";

function render(entries: Entry[]): string {
  return androidXmlFormatter.render(exportInput(entries));
}

describe("xml (Android string resources)", () => {
  test("shape and escaping (CONTRACT §10)", () => {
    const out = render([
      { key: "b", value: 'it\'s "x" \\ \n\t\r <&> @' },
      { key: "a", value: "@home" },
      { key: "c", value: " two  spaces " },
      { key: "d", value: "%s and %s" },
      { key: 'e&"k\n', value: "?q \x85" },
    ]);
    expect(out).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<resources>",
        '  <string name="a">\\@home</string>',
        '  <string name="b">it\\\'s \\"x\\" \\\\ \\n\\t\\u000d &lt;&amp;&gt; @</string>',
        '  <string name="c">" two  spaces "</string>',
        '  <string name="d" formatted="false">%s and %s</string>',
        '  <string name="e&amp;&quot;k&#10;">\\?q &#x85;</string>',
        "</resources>",
        "",
      ].join("\n"),
    );
  });

  test("escapeAndroidString", () => {
    expect(escapeAndroidString("")).toBe("");
    expect(escapeAndroidString("plain text")).toBe("plain text");
    expect(escapeAndroidString(" ")).toBe('" "');
    expect(escapeAndroidString('@ "a"  ')).toBe('"\\@ \\"a\\"  "');
    expect(escapeAndroidString("a@b?")).toBe("a@b?");
    expect(escapeAndroidString("\n x")).toBe("\\n x");
    expect(escapeAndroidString("\x7f\x9f\xa0")).toBe("&#x7F;&#x9F;\xa0");
  });

  const REFUSED = ["%s and %s", "%d%n", "%1$s %<s", "%s %1$s", "%5s %s", "%s%%%s"];
  const ACCEPTED = ["", "%s", "100%", "100%% sure, %s", "%1$s and %2$d", "%s at %k", "%", "%%%%", "50% %"];

  test('formatted="false" where aapt or aapt2 would refuse the format string', () => {
    for (const v of REFUSED) expect([v, needsUnformatted(v)]).toEqual([v, true]);
    for (const v of ACCEPTED) expect([v, needsUnformatted(v)]).toEqual([v, false]);
  });

  testWith([AAPT], 'aapt agrees on which format strings need formatted="false"', () => {
    const accepted = ACCEPTED.map((value, i) => ({ key: `ok_${i}`, value }));
    expect(render(accepted)).not.toContain("formatted");
    expect(aaptCompile({ "strings.xml": render(accepted) }).size).toBe(ACCEPTED.length);
    for (const value of REFUSED) {
      const xml = render([{ key: "refused", value }]);
      expect(xml).toContain(' formatted="false"');
      expect(aaptCompile({ "strings.xml": xml }).get("refused")).toBe(value);
      expect(() => aaptCompile({ "strings.xml": xml.replace(' formatted="false"', "") })).toThrow(
        /substitutions/,
      );
    }
  });

  test("fast-xml-parser plus Android's unescaping gives back every key and value", () => {
    const check = (entries: Entry[]) => {
      const input = exportInput(entries);
      const strings = readAndroid(androidXmlFormatter.render(input));
      expect(strings.map((s) => [s.name, decodeAndroidString(s.raw)])).toEqual(expectedPairs(input));
      for (const [i, s] of strings.entries()) {
        expect(s.formatted).toBe(needsUnformatted(input.rows[i]?.value ?? "") ? "false" : undefined);
      }
    };
    check(hardFixture());
    fc.assert(fc.property(entriesArb(), check), { numRuns: 150 });
  });

  testWith(
    [PYTHON],
    "Python's XML parser (expat) plus Android's unescaping gives back every key and value",
    () => {
      const docs = [hardFixture(), ...fc.sample(entriesArb(), { numRuns: 50, seed: 7 })];
      const s = scratch(Object.fromEntries(docs.map((d, i) => [`doc-${i}.xml`, render(d)])));
      try {
        const read = pythonXml(s.paths) as { strings: AndroidString[] }[];
        expect(read.map((doc) => doc.strings.map((x) => [x.name, decodeAndroidString(x.raw)]))).toEqual(
          docs.map((d) => expectedPairs(exportInput(d))),
        );
      } finally {
        s.done();
      }
    },
  );

  testWith([AAPT], "aapt and aapt2 compile it, and aapt's compiled values equal the originals", () => {
    // Every hard value, plus 50 generated documents with resource-name keys, one values file each
    // (keys prefixed per document so that the files can share one res/ folder and no key is a
    // Java keyword, which aapt refuses as a name).
    const generated = fc.sample(entriesArb(androidKeyArb), { numRuns: 50, seed: 11 });
    const docs: Entry[][] = [
      androidFixture(),
      ...generated.map((entries, n) => entries.map((e) => ({ ...e, key: `d${n}_${e.key}` }))),
    ];
    const files = Object.fromEntries(docs.map((d, i) => [`strings_${i}.xml`, render(d)]));
    const compiled = aaptCompile(files);
    const expected = new Map(docs.flatMap((d) => expectedPairs(exportInput(d))));
    expect(compiled.size).toBe(expected.size);
    for (const [name, value] of expected) expect([name, compiled.get(name)]).toEqual([name, value]);
    expect(compiled.get("long_text")).toBe(HARD_VALUES.long_text);
  });
});

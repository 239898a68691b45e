import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { xliffFormatter } from "../../core/formats/xliff.ts";
import { xliffUnitId } from "../../core/formats/xliff-20.ts";
import { entriesArb, HARD_KEYS, hardFixture } from "./support/data.ts";
import { type Entry, exportInput, PROJECT } from "./support/input.ts";
import { readXliff, type XliffDoc } from "./support/readers.ts";
import {
  PYTHON,
  pythonXml,
  scratch,
  testWith,
  XMLLINT,
  XSD_12,
  XSD_20,
  xmllintValidate,
} from "./support/tools.ts";

const STATES_12 = {
  draft: "new",
  pending: "translated",
  needs_review: "needs-review-translation",
  approved: "final",
};
const STATES_20 = { draft: "initial", pending: "translated", needs_review: "translated", approved: "final" };

/** What a reader must find in an export of `entries`. */
function expected(entries: Entry[], version: "1.2" | "2.0"): XliffDoc {
  const input = exportInput(entries, { xliffVersion: version });
  const states: Record<string, string> = version === "1.2" ? STATES_12 : STATES_20;
  return {
    version,
    namespace: `urn:oasis:names:tc:xliff:document:${version}`,
    original: PROJECT.name,
    sourceLanguage: PROJECT.baseLanguage,
    targetLanguage: input.language,
    units: input.rows.map((r) => ({
      id: version === "1.2" ? r.key : xliffUnitId(r.key),
      key: r.key,
      source: input.sources.get(r.key) ?? "",
      target: r.value,
      state: states[r.status],
      space: "preserve",
    })),
  };
}

function render(entries: Entry[], version: "1.2" | "2.0"): string {
  return xliffFormatter.render(exportInput(entries, { xliffVersion: version }));
}

const SMALL: Entry[] = [
  { key: "b", value: "B\r\n<&>", status: "draft", source: "b-en" },
  { key: "a b", value: "", status: "needs_review" },
];

describe("xliff", () => {
  test("1.2 shape (CONTRACT §10)", () => {
    expect(render(SMALL, "1.2")).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
        '  <file original="Demo &amp; &quot;Friends&quot; &lt;app&gt;&#9;v2" datatype="plaintext" source-language="en" target-language="fr">',
        "    <body>",
        '      <trans-unit id="a b" resname="a b" xml:space="preserve">',
        "        <source></source>",
        '        <target state="needs-review-translation"></target>',
        "      </trans-unit>",
        '      <trans-unit id="b" resname="b" xml:space="preserve">',
        "        <source>b-en</source>",
        '        <target state="new">B&#13;\n&lt;&amp;&gt;</target>',
        "      </trans-unit>",
        "    </body>",
        "  </file>",
        "</xliff>",
        "",
      ].join("\n"),
    );
  });

  test("2.0 shape (CONTRACT §10, §11)", () => {
    expect(render(SMALL, "2.0")).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">',
        '  <file id="f1" original="Demo &amp; &quot;Friends&quot; &lt;app&gt;&#9;v2">',
        '    <unit id="a:20:b" name="a b" xml:space="preserve">',
        '      <segment state="translated">',
        "        <source></source>",
        "        <target></target>",
        "      </segment>",
        "    </unit>",
        '    <unit id="b" name="b" xml:space="preserve">',
        '      <segment state="initial">',
        "        <source>b-en</source>",
        "        <target>B&#13;\n&lt;&amp;&gt;</target>",
        "      </segment>",
        "    </unit>",
        "  </file>",
        "</xliff>",
        "",
      ].join("\n"),
    );
  });

  test("2.0 unit ids: ASCII NMTOKENs, one per key, decodable back to the key", () => {
    expect(xliffUnitId("common.login_button-2")).toBe("common.login_button-2");
    expect(xliffUnitId("a b")).toBe("a:20:b");
    expect(xliffUnitId("a:20:b")).toBe("a:3a:20:3a:b");
    expect(xliffUnitId("ü😀\n")).toBe(":fc::1f600::a:");
    const decode = (id: string) =>
      id.replace(/:([0-9a-f]+):/g, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)));
    const check = (key: string) => {
      const id = xliffUnitId(key);
      expect(id).toMatch(/^[A-Za-z0-9._:-]+$/);
      expect(decode(id)).toBe(key);
    };
    for (const key of HARD_KEYS) check(key);
    fc.assert(
      fc.property(entriesArb(), (entries) => {
        for (const e of entries) check(e.key);
      }),
      { numRuns: 200 },
    );
  });

  for (const version of ["1.2", "2.0"] as const) {
    test(`${version}: fast-xml-parser reads back keys, targets, sources, states and ids`, () => {
      const entries = hardFixture();
      expect(readXliff(render(entries, version))).toEqual(expected(entries, version));
      fc.assert(
        fc.property(entriesArb(), (generated) => {
          expect(readXliff(render(generated, version))).toEqual(expected(generated, version));
        }),
        { numRuns: 100 },
      );
    });
  }

  test("2.0 with no rows still has the unit-or-group a file needs", () => {
    expect(render([], "2.0")).toContain('<group id="empty"/>');
  });

  // One hard fixture, one tiny and one empty document, and 50 generated documents per version.
  const docs: Entry[][] = [
    hardFixture(),
    SMALL,
    [],
    ...fc.sample(entriesArb(), { numRuns: 50, seed: 20260101 }),
  ];

  for (const [version, xsd] of [
    ["1.2", XSD_12],
    ["2.0", XSD_20],
  ] as const) {
    testWith([XMLLINT], `${version}: xmllint validates against the ${version} schema`, () => {
      const files: Record<string, string> = {};
      docs.forEach((d, i) => {
        files[`doc-${i}.xlf`] = render(d, version);
      });
      const s = scratch(files);
      try {
        const r = xmllintValidate(xsd, s.paths);
        if (r.code !== 0) throw new Error(r.stderr);
        expect(r.stderr.split("\n").filter((l) => l.endsWith(" validates"))).toHaveLength(docs.length);
      } finally {
        s.done();
      }
    });

    testWith([PYTHON], `${version}: Python's XML parser (expat) reads back every unit exactly`, () => {
      const withRows = docs.filter((d) => d.length > 0);
      const files: Record<string, string> = {};
      withRows.forEach((d, i) => {
        files[`doc-${i}.xlf`] = render(d, version);
      });
      const s = scratch(files);
      try {
        const read = pythonXml(s.paths) as XliffDoc[];
        expect(read).toEqual(
          withRows.map((d) => {
            const { namespace: _, ...rest } = expected(d, version);
            return rest as XliffDoc;
          }),
        );
      } finally {
        s.done();
      }
    });
  }
});

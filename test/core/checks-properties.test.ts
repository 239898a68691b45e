/**
 * Properties of checkTranslation over generated texts: a translation equal to its base never warns,
 * no input throws, every warning is well-formed, a removed or added placeholder is always found, and
 * named placeholders may be reordered freely.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  type CheckInput,
  checkTranslation,
  MAX_WARNINGS,
  WARNING_CODES,
  type Warning,
} from "../../core/index.ts";

/** Pieces of real strings: every syntax, the characters that trip parsers, several scripts. */
const fragment = fc.oneof(
  fc.constantFrom(
    "Hello ",
    "{name}",
    "{ count }",
    "{count, plural, one {# file} other {# files}}",
    "{g, select, male {He} female {She} other {They}}",
    "{n, selectordinal, one {#st} other {#th}}",
    "{d, date, short}",
    "{p, number, ::percent}",
    "{{name}}",
    "{{- link}}",
    "{{val, currency(USD)}}",
    "$t(common.ok)",
    "%s",
    "%1$s",
    "%2$d",
    "%.2f",
    "%%",
    "%",
    "%(user)s",
    "%@",
    "%1",
    "<b>",
    "</b>",
    "<br/>",
    '<a href="{url}">',
    "<0>",
    "</0>",
    "{",
    "}",
    "'",
    "''",
    "'{",
    "#",
    "<",
    "\n",
    "\r\n",
    "\\n",
    " ",
    "\u00a0",
    "\t",
    "\u200f",
    "\u2068",
    "مرحبا",
    "שלום",
    "東京",
    "｛name｝",
    "🎉",
    "👨‍👩‍👧",
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc.string({ unit: "binary", maxLength: 3 }),
);
const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));
const language = fc.constantFrom("fr", "de", "ar", "he", "ja", "zh-Hant", "ru", "ko");

function wellFormed(warnings: Warning[], value: string): void {
  expect(Array.isArray(warnings)).toBe(true);
  expect(warnings.length).toBeLessThanOrEqual(MAX_WARNINGS);
  let rank = 0;
  for (const w of warnings) {
    expect(WARNING_CODES).toContain(w.code);
    expect(typeof w.message).toBe("string");
    expect(w.message.length).toBeGreaterThan(10);
    const r = WARNING_CODES.indexOf(w.code);
    expect(r).toBeGreaterThanOrEqual(rank); // ordered by code
    rank = r;
    if (w.offset !== undefined) {
      expect(Number.isInteger(w.offset)).toBe(true);
      expect(w.offset).toBeGreaterThanOrEqual(0);
      expect(w.offset).toBeLessThanOrEqual(value.length);
    }
    if (w.placeholder !== undefined) expect(w.placeholder.length).toBeGreaterThan(0);
    if (w.syntax !== undefined) expect(["icu", "brace", "i18next", "printf", "tag"]).toContain(w.syntax);
  }
}

describe("checkTranslation properties", () => {
  test("a translation equal to its base never warns", () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string(), fc.string({ unit: "binary" })), language, (t, lang) => {
        expect(checkTranslation({ base: t, value: t, baseLanguage: "en", language: lang })).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  test("no input throws, and every warning is well-formed", () => {
    const anything = fc.oneof(text, fc.string(), fc.string({ unit: "binary", maxLength: 40 }));
    fc.assert(
      fc.property(fc.option(anything, { nil: null }), anything, language, (base, value, lang) => {
        const input: CheckInput = { base, value, baseLanguage: "en", language: lang };
        const warnings = checkTranslation(input);
        wellFormed(warnings, value);
        if (base === null) for (const w of warnings) expect(w.code).toBe("icu-syntax");
      }),
      { numRuns: 4000 },
    );
  });

  test("pathological inputs finish and do not throw", () => {
    let deep = "x";
    for (let i = 0; i < 3000; i++) deep = `{a, select, other {${deep}}}`;
    const long = 100_000;
    const inputs: [string | null, string][] = [
      [deep, deep],
      [null, deep],
      ["{a}", deep],
      ["{a}", "{".repeat(long)],
      ["<b>x</b>", "<a ".repeat(long / 3)],
      ["%s", "%".repeat(long)],
      ["{{a}}", "{{".repeat(long / 2)],
      ["{a}", "{a, ".repeat(long / 4)],
      ["$t(a)", "$t(".repeat(long / 3)],
      [" a ", "\u200f".repeat(long)],
      ["x", `{a${" ".repeat(long)}b`],
      ["{a}", Array.from({ length: 5000 }, (_, i) => `{x${i}}`).join(" ")],
    ];
    for (const [base, value] of inputs) {
      wellFormed(checkTranslation({ base, value, baseLanguage: "en", language: "fr" }), value);
    }
  });
});

/** A base built of words and unique placeholders of one syntax, in some script. */
const SYNTAXES = {
  icu: (i: number) => [`{p${i}}`],
  i18next: (i: number) => [`{{p${i}}}`],
  printf: (i: number) => [`%${i + 1}$s`],
  tag: (i: number) => [`<t${i}>`, `</t${i}>`],
} as const;
const words = fc.array(
  fc.constantFrom("files", "für", "ملفات", "קבצים", "ファイル", "文件", "🎉", "l’équipe", "100"),
  {
    minLength: 1,
    maxLength: 3,
  },
);
const built = fc
  .tuple(
    fc.constantFrom(...(Object.keys(SYNTAXES) as (keyof typeof SYNTAXES)[])),
    fc.array(words, { minLength: 1, maxLength: 4 }),
  )
  .map(([syntax, chunks]) => {
    const tokens = chunks.map((_, i) => SYNTAXES[syntax](i));
    const render = (order: number[]) =>
      order.map((i) => `${(chunks[i] as string[]).join(" ")} ${(tokens[i] as string[]).join("x")}`).join(" ");
    return { syntax, tokens, chunks, render };
  });

describe("placeholders are always found", () => {
  test("a removed placeholder is reported missing, by name", () => {
    fc.assert(
      fc.property(built, fc.nat(), language, ({ tokens, render, chunks }, pick, lang) => {
        const order = chunks.map((_, i) => i);
        const base = render(order);
        const dropped = (tokens[pick % tokens.length] as string[])[0] as string;
        const value = base.replace(dropped, "");
        const warnings = checkTranslation({ base, value, baseLanguage: "en", language: lang });
        const found = warnings.find((w) => w.placeholder === dropped);
        expect(found?.code ?? JSON.stringify(warnings)).toMatch(/^(placeholder|tag)-missing$/);
      }),
      { numRuns: 1500 },
    );
  });

  test("an added placeholder is reported extra", () => {
    fc.assert(
      fc.property(built, language, ({ syntax, chunks, render }, lang) => {
        const base = render(chunks.map((_, i) => i));
        const tokens = SYNTAXES[syntax](99) as readonly string[];
        const added = tokens[0] as string;
        const value = `${base} ${tokens.join("x")}`;
        const warnings = checkTranslation({ base, value, baseLanguage: "en", language: lang });
        expect(warnings.find((w) => w.placeholder === added)?.code).toMatch(/^(placeholder|tag)-extra$/);
      }),
      { numRuns: 1500 },
    );
  });

  test("named placeholders may come in any order", () => {
    fc.assert(
      fc.property(built, fc.nat(), language, ({ chunks, render }, seed, lang) => {
        const order = chunks.map((_, i) => i);
        const shuffled = [...order].sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
        const warnings = checkTranslation({
          base: render(order),
          value: render(shuffled),
          baseLanguage: "en",
          language: lang,
        });
        expect(warnings).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});

/**
 * ICU syntax: errors in translations as translators make them, and which texts count as ICU at all
 * (a plain sentence with a lone brace never does).
 */
import { describe, expect, test } from "bun:test";
import { checkTranslation, type Warning } from "../../core/index.ts";

const check = (base: string | null, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });
const codes = (base: string | null, value: string, language = "fr") =>
  check(base, value, language).map((w) => w.code);

describe("ICU syntax errors in the translation", () => {
  const base = "{count, plural, one {# file} other {# files}}";
  const cases: [string, string, string][] = [
    ["a translated keyword", "{count, pluriel, one {# fichier} other {# fichiers}}", "never translated"],
    ["translated case names", "{count, plural, un {# fichier} autre {# fichiers}}", "other {…}"],
    ["an unclosed brace", "{count, plural, one {# fichier} other {# fichiers}", "never closed"],
    ["a lost case body", "{count, plural, one {# fichier} other}", "in braces"],
    ["a duplicated case", "{count, plural, one {# fichier} one {# fichiers} other {# fichiers}}", "twice"],
    ["a missing type after the comma", "{count, } fichiers", "type"],
  ];
  for (const [what, value, says] of cases) {
    test(what, () => {
      const warnings = check(base, value);
      expect(warnings.map((w) => w.code)).toEqual(["icu-syntax"]);
      expect(warnings[0]?.message).toContain(says);
      expect(warnings[0]?.message).toContain("which the base is");
      expect(warnings[0]?.offset).toBeGreaterThanOrEqual(0);
    });
  }

  test("i18next-style double braces in an ICU project", () => {
    const [w] = check("Hello {name}", "Bonjour {{name}}");
    expect(w?.code).toBe("icu-syntax");
    expect(w?.message).toContain("Double braces");
    expect(w?.offset).toBe(8);
  });

  test("an argument typed backwards in right-to-left text", () => {
    const [w] = check("Hello {name}!", "مرحبا }name{!", "ar");
    expect(w?.code).toBe("icu-syntax");
    expect(w?.message).toContain("backwards");
  });

  test("an invalid number skeleton and an unsupported date pattern", () => {
    expect(codes("{n, number, ::percent}", "{n, number, ::}")).toEqual(["icu-syntax"]);
    const [w] = check("{d, date, ::yyyyMMdd}", "{d, date, ::QQQQQQQQ}");
    expect(w?.code).toBe("icu-syntax");
    expect(w?.message).toContain("not supported");
  });

  test("a syntax error hides placeholder warnings (fix the syntax first) but not whitespace ones", () => {
    expect(codes("Hello {name} ", "Bonjour {nom")).toEqual(["icu-syntax", "whitespace-trailing"]);
  });
});

describe("when a text counts as ICU", () => {
  test("a plain sentence with a lone brace is fine when the base is not ICU", () => {
    expect(check("Use { to open a block", "Utilisez { pour ouvrir un bloc")).toEqual([]);
    expect(check("Press the key", "Appuyez sur la touche {")).toEqual([]);
    expect(check("Hello {{name}}", "Bonjour {{name}} {")).toEqual([]);
  });

  test("a lone brace is an error when the base is ICU", () => {
    expect(codes("Hello {name}", "Bonjour {name} {")).toEqual(["icu-syntax"]);
  });

  test("a base without arguments is not ICU, even with quoted braces", () => {
    // English quoting a brace, as C programs' messages do: the translation's « { » is fine.
    expect(
      check("%s}: integer required between '{' and '}'", "%s} : entier nécessaire entre « { » et « } »"),
    ).toEqual([]);
    expect(check("Type '{' to start", "Tapez « { » pour commencer")).toEqual([]);
  });

  test("quoted text in an ICU base is not a placeholder", () => {
    expect(check("Use '{name}' for {user}", "Utilisez '{name}' pour {user}")).toEqual([]);
    expect(check("Use '{name}' for {user}", "Utilisez {name} pour {user}")).toMatchObject([
      { code: "placeholder-extra", placeholder: "{name}" },
    ]);
  });

  test("a base that is broken ICU is compared as plain text, so an identical translation passes", () => {
    const broken = "{count, plural, one {# file} other {# files}";
    expect(check(broken, broken)).toEqual([]);
    expect(check(broken, "{count, plural, one {# fichier} other {# fichiers}")).toEqual([]);
  });

  test("without a base, only a text that is evidently ICU is checked", () => {
    expect(codes(null, "{count, plural, one {# file} other {# files}")).toEqual(["icu-syntax"]);
    expect(check(null, "{count, plural, one {# file} other {# files}}")).toEqual([]);
    expect(check(null, "A lone { brace")).toEqual([]);
    expect(check(null, "Hello {name")).toEqual([]);
    const [w] = check(null, "{n, select, male {He}}");
    expect(w?.message).toStartWith("This is not valid ICU MessageFormat: ");
    expect(w?.message).not.toContain("which the base is");
  });
});

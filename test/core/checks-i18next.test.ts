/**
 * i18next strings: interpolation, unescaped values, formatting, nesting and react-i18next's Trans
 * tags. Each pair is also rendered by i18next itself: a placeholder is reported missing exactly when
 * i18next loses the value, and extra exactly when i18next leaves it unresolved.
 */
import { describe, expect, test } from "bun:test";
import i18next from "i18next";
import { checkTranslation, type Warning } from "../../core/index.ts";

const check = (base: string, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });

/**
 * The app passes a value for each name its base string uses (found here with a deliberately naive
 * expression, independent of the checks); each value and each nested text renders as a marker.
 */
const valuesFor = (base: string): Record<string, string> =>
  Object.fromEntries([...base.matchAll(/\{\{-?\s*(\w+)/g)].map((m) => [m[1], `⟦${m[1]}⟧`]));
const NESTED = { "common.appName": "⟦$t:appName⟧", girls: "⟦$t:girls⟧", "legal.terms": "⟦$t:terms⟧" };

async function renderer() {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: "fr",
    resources: { fr: { translation: {} } },
    keySeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  // Formats render the value as it is, so its marker stays findable.
  for (const format of ["number", "datetime", "currency"])
    i18n.services.formatter?.add(format, (v) => String(v));
  return (text: string, base: string) => {
    i18n.addResourceBundle("fr", "translation", { ...NESTED, probe: text }, true, true);
    return i18n.t("probe", valuesFor(base)) as string;
  };
}

const markers = (rendered: string) => new Set(rendered.match(/⟦[^⟧]+⟧/g) ?? []);

/** Real strings of i18next projects (the i18next documentation's own examples first). */
const PAIRS: [base: string, translation: string][] = [
  ["{{what}} is {{how}}", "{{what}} est {{how}}"],
  ["{{what}} is {{how}}", "{{what}} est génial"],
  ["dangerous {{myVar}}", "dangereux {{ myVar }}"],
  ["{{- link}} opens in a new tab", "{{- link}} s’ouvre dans un nouvel onglet"],
  ["{{- link}} opens in a new tab", "s’ouvre dans un nouvel onglet"],
  ["Total: {{val, currency(USD)}}", "Gesamt: {{val, currency(USD)}}"],
  ["The current date is {{date, datetime}}", "La date du jour est le {{date, datetime}}"],
  ["The current date is {{date, datetime}}", "La date du jour est aujourd’hui"],
  ["$t(common.appName) is ready", "$t(common.appName) est prêt"],
  ["$t(common.appName) is ready", "L’application est prête"],
  [
    '$t(girls, {"count": {{girls}} }) and {{count}} boy',
    '$t(girls, {"count": {{girls}} }) et {{count}} garçon',
  ],
  ["{{count}} items", "{{count}} éléments de {{user}}"],
  ["Hello {{name}}", "Bonjour {{nom}}"],
  ["Hello {{name}}", "Bonjour {name}"],
  ["Welcome {{name}}", "أهلاً {{name}}"],
  ["Welcome {{name}}", "ברוך הבא {{name}}"],
  ["{{count}} new messages", "{{count}}件の新着メッセージ"],
  ["{{count}} new messages", "新着メッセージ"],
  ["🎉 {{name}} joined", "🎉 {{name}} a rejoint"],
  [
    "Hello <1>{{name}}</1>, you have {{count}} unread message. <5>Go to messages</5>.",
    "Bonjour <1>{{name}}</1>, vous avez {{count}} message non lu. <5>Voir les messages</5>.",
  ],
  ["By signing up you accept $t(legal.terms)", "En vous inscrivant, vous acceptez les conditions"],
  ["Total {{total, number}} and {{count}}", "{{count}} et {{total, number}} au total"],
];

describe("i18next placeholders agree with what i18next renders", () => {
  test("missing exactly when i18next loses a value; extra exactly when it leaves one unresolved", async () => {
    const render = await renderer();
    for (const [base, value] of PAIRS) {
      const warnings = check(base, value).filter((w) => w.syntax === "i18next");
      const shown = markers(render(value, base));
      const lost = [...markers(render(base, base))].filter((m) => !shown.has(m));
      const unresolved = /\{\{/.test(render(value, base));
      const why = `${base} → ${value}: ${JSON.stringify(warnings)}`;
      expect(
        warnings.some((w) => w.code === "placeholder-missing"),
        why,
      ).toBe(lost.length > 0);
      expect(
        warnings.some((w) => w.code === "placeholder-extra"),
        why,
      ).toBe(unresolved);
    }
  });
});

describe("i18next placeholders", () => {
  test("each missing placeholder is named as the base writes it", () => {
    expect(check("{{what}} is {{how}}", "{{what}} est génial")).toMatchObject([
      { code: "placeholder-missing", placeholder: "{{how}}", syntax: "i18next" },
    ]);
    expect(check("Last seen {{date, datetime}}", "Vu pour la dernière fois")).toMatchObject([
      { placeholder: "{{date, datetime}}" },
    ]);
    const [nested] = check("$t(common.appName) is ready", "L’application est prête");
    expect(nested?.placeholder).toBe("$t(common.appName)");
    expect(nested?.message).toContain("another text");
  });

  test("the escape prefix, spacing and the format may differ: the same value is still shown", () => {
    expect(check("{{- link}} here", "ici {{link}}")).toEqual([]);
    expect(check("Hello {{name}}", "Bonjour {{ name }}")).toEqual([]);
    expect(check("{{date, datetime}}", "{{date, datetime(dateStyle: long)}}", "de")).toEqual([]);
  });

  test("an extra placeholder lists the base's", () => {
    const value = "{{count}} éléments de {{user}}";
    const [w] = check("{{count}} items", value);
    expect(w).toMatchObject({
      code: "placeholder-extra",
      placeholder: "{{user}}",
      offset: value.indexOf("{{user}}"),
    });
    expect(w?.message).toContain("{{count}}");
  });

  test("single braces instead of double are missing the double and extra as a brace placeholder", () => {
    expect(check("Hello {{name}}", "Bonjour {name}").map((w) => [w.code, w.syntax, w.placeholder])).toEqual([
      ["placeholder-missing", "i18next", "{{name}}"],
      ["placeholder-extra", "brace", "{name}"],
    ]);
  });

  test("react-i18next Trans tags are compared as tags", () => {
    const base = "Hello <1>{{name}}</1>, you have {{count}} unread message. <5>Go to messages</5>.";
    expect(
      check(base, "Bonjour <1>{{name}}</1>, vous avez {{count}} message non lu. Voir les messages."),
    ).toMatchObject([
      { code: "tag-missing", placeholder: "<5>", syntax: "tag" },
      { code: "tag-missing", placeholder: "</5>", syntax: "tag" },
    ]);
    expect(check("Click <0/> to continue", "Cliquez <0/> pour continuer")).toEqual([]);
  });

  test("i18next-icu messages nest with $t() inside ICU", () => {
    const base = "{count, plural, one {# file} other {# files}} in $t(common.appName)";
    expect(
      check(base, "{count, plural, one {# fichier} other {# fichiers}} dans $t(common.appName)"),
    ).toEqual([]);
    expect(check(base, "{count, plural, one {# fichier} other {# fichiers}} dans l’appli")).toMatchObject([
      { code: "placeholder-missing", placeholder: "$t(common.appName)" },
    ]);
  });
});

describe("single-brace placeholders outside ICU (Vue I18n, .NET, Python format)", () => {
  test("compared by name when the base is not ICU", () => {
    // `{0:N2}` is not ICU (the colon), so the base is read as plain text with .NET placeholders.
    expect(check("Total: {0:N2} for {1}", "Gesamt: {0:N2} für {1}", "de")).toEqual([]);
    expect(check("Total: {0:N2} for {1}", "Gesamt: {0:N2}", "de")).toMatchObject([
      { code: "placeholder-missing", placeholder: "{1}", syntax: "brace" },
    ]);
    expect(check("Hi {name!r}", "Salut {name!r}")).toEqual([]);
  });

  test("a shell brace list is not a placeholder", () => {
    expect(
      check("cannot combine any two of {ascii,ebcdic,ibm}", "impossible de combiner ascii, ebcdic et ibm"),
    ).toEqual([]);
  });

  test("a brace placeholder the base does not have is extra", () => {
    expect(check("Hello", "Bonjour {name}")).toMatchObject([
      { code: "placeholder-extra", placeholder: "{name}" },
    ]);
  });
});

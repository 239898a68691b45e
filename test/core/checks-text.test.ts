/** Checks on the text itself: empty values, edge whitespace, line breaks; across scripts. */
import { describe, expect, test } from "bun:test";
import { checkTranslation, type Warning } from "../../core/index.ts";

const check = (base: string | null, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });
const codes = (base: string | null, value: string, language = "fr") =>
  check(base, value, language).map((w) => w.code);

describe("empty translations", () => {
  test("empty or blank where the base has text, and nothing else is reported", () => {
    expect(codes("Save {name}", "")).toEqual(["empty"]);
    expect(codes("Save", "   \n")).toEqual(["empty"]);
    expect(check("Save", "")[0]?.message).toContain("empty");
  });

  test("an empty base allows an empty translation; no base means no comparison", () => {
    expect(check("", "")).toEqual([]);
    expect(codes(" ", "")).toEqual(["whitespace-leading"]); // a separator lost: whitespace, not "empty"
    expect(check(null, "")).toEqual([]);
    expect(check(null, "  anything {")).toEqual([]);
  });
});

describe("leading and trailing whitespace", () => {
  test("a space lost or added at either end", () => {
    const [end] = check("Name: ", "Nom :");
    expect(end).toMatchObject({ code: "whitespace-trailing", offset: "Nom :".length });
    expect(end?.message).toContain("ends with a space, the translation with none");
    expect(codes("Total", "Total ")).toEqual(["whitespace-trailing"]);
    expect(codes(" (optional)", "(facultatif)")).toEqual(["whitespace-leading"]);
  });

  test("typography is not a bug: two spaces for one, a no-break space for a space", () => {
    expect(check("Name: ", "Nom\u00a0: ")).toEqual([]);
    expect(check("Name: ", "Nom :\u00a0")).toEqual([]);
    expect(check("  Indented", " Eingerückt", "de")).toEqual([]);
  });

  test("French sets a space before : ; ! ? », which is typography, not a stray space", () => {
    expect(check("; ", " ; ")).toEqual([]);
    expect(check(": cache exhausted", " : mémoire cache saturée")).toEqual([]);
    expect(codes("; ", " ; ", "de")).toEqual(["whitespace-leading"]);
    expect(codes("Close", " Fermer")).toEqual(["whitespace-leading"]);
  });

  test("line breaks at the ends are counted and named", () => {
    const [w] = check("\nMore", "Plus");
    expect(w?.code).toBe("whitespace-leading");
    expect(w?.message).toContain("a line break");
    expect(codes("Done\n", "Fini\r\n")).toEqual([]); // CRLF is one break
    expect(codes("Done\n\n", "Fini\n")).toEqual(["whitespace-trailing"]);
  });

  test("languages written without spaces may drop a joining space, but not a line break", () => {
    expect(check("Name: ", "名前：", "ja")).toEqual([]);
    expect(check(" (optional)", "（任意）", "ja-JP")).toEqual([]);
    expect(check("Name: ", "名称：", "zh-Hant")).toEqual([]);
    expect(codes("Name:\n", "名前：", "ja")).toEqual(["whitespace-trailing"]);
    // Korean separates words with spaces.
    expect(codes("Name: ", "이름:", "ko")).toEqual(["whitespace-trailing"]);
  });

  test("bidirectional marks at the ends of right-to-left text are invisible, not whitespace", () => {
    expect(check("Hello {name}", "\u200fمرحبا {name}\u200f", "ar")).toEqual([]);
    expect(check("Hello ", "\u2067שלום \u2069", "he")).toEqual([]);
    expect(codes("Hello ", "\u2067שלום\u2069", "he")).toEqual(["whitespace-trailing"]);
  });
});

describe("line breaks inside the text", () => {
  test("a lost or added line break", () => {
    const [w] = check("First line\nSecond line", "Première ligne Deuxième ligne");
    expect(w?.code).toBe("line-breaks");
    expect(w?.message).toContain("1 line break");
    expect(codes("One\nTwo", "Un\nDeux\nTrois")).toEqual(["line-breaks"]);
    expect(check("One\r\nTwo", "Un\nDeux")).toEqual([]);
  });

  test("escaped \\n as Android and iOS sources keep them", () => {
    expect(check("First\\nSecond", "Premier\\nDeuxième")).toEqual([]);
    const [w] = check("First\\nSecond", "Premier Deuxième");
    expect(w).toMatchObject({ code: "line-breaks", placeholder: "\\n" });
  });

  test("CJK and emoji text with line breaks", () => {
    expect(check("🎉 Welcome!\nLet's start.", "🎉 ようこそ！\nはじめましょう。", "ja")).toEqual([]);
    expect(codes("🎉 Welcome!\nLet's start.", "🎉 欢迎！开始吧。", "zh")).toEqual(["line-breaks"]);
  });
});

describe("plain text", () => {
  test("text without placeholders, tags or edge whitespace never warns, in any script", () => {
    const pairs: [string, string, string][] = [
      ["Save changes", "Enregistrer les modifications", "fr"],
      ["Save changes", "حفظ التغييرات", "ar"],
      ["Save changes", "שמור שינויים", "he"],
      ["Save changes", "変更を保存", "ja"],
      ["Save changes", "保存更改", "zh"],
      ["Great job 👍🏽", "Bravo 👍🏽", "fr"],
      ["Family: 👨‍👩‍👧", "Familie: 👨‍👩‍👧", "de"],
      ["Price: $5", "Prix : 5 $", "fr"],
    ];
    for (const [base, value, language] of pairs) expect(check(base, value, language)).toEqual([]);
  });

  test("the input is never changed and the same input always gives the same warnings", () => {
    const input = { base: "Hello {name} ", value: "Bonjour {nom}", baseLanguage: "en", language: "fr" };
    const copy = structuredClone(input);
    const first = checkTranslation(input);
    expect(input).toEqual(copy);
    expect(checkTranslation(input)).toEqual(first);
  });

  test("warnings come in the documented order of codes", () => {
    expect(codes(" <b>Hello {name}</b>\nx", "Bonjour {nom}</b> x ")).toEqual([
      "placeholder-missing",
      "placeholder-extra",
      "tag-missing",
      "whitespace-leading",
      "whitespace-trailing",
      "line-breaks",
    ]);
  });

  test("a hopeless text gets at most MAX_WARNINGS warnings", () => {
    const base = Array.from({ length: 60 }, (_, i) => `{a${i}}`).join(" ");
    expect(check(base, "rien").length).toBe(20);
  });
});

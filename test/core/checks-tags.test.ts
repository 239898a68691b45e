/** HTML/XML tags: real snippets from web apps, e-mail templates and Android/iOS resources. */
import { describe, expect, test } from "bun:test";
import { checkTranslation, type Warning } from "../../core/index.ts";

const check = (base: string, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });
const tags = (warnings: Warning[]) => warnings.map((w) => [w.code, w.placeholder]);

describe("HTML tags", () => {
  test("faithful translations pass, attributes may be localised", () => {
    const pairs: [string, string, string][] = [
      [
        'By continuing you agree to our <a href="https://example.com/terms" target="_blank">Terms of Service</a>.',
        'En continuant, vous acceptez nos <a href="https://example.com/fr/conditions" target="_blank">conditions d’utilisation</a>.',
        "fr",
      ],
      [
        "<b>Warning:</b> this cannot be undone.<br/>Continue?",
        "<b>Achtung:</b> Das kann nicht rückgängig gemacht werden.<br/>Fortfahren?",
        "de",
      ],
      ["<strong>{count}</strong> new followers", "<strong>{count}</strong> nouveaux abonnés", "fr"],
      ["Press <kbd>Ctrl</kbd>+<kbd>S</kbd> to save", "<kbd>Ctrl</kbd>+<kbd>S</kbd>を押して保存", "ja"],
      [
        "<p>Hello <em>{{name}}</em>,</p><p>Welcome!</p>",
        "<p>مرحبًا <em>{{name}}</em>،</p><p>أهلًا بك!</p>",
        "ar",
      ],
      ['<img src="logo.png" alt="Logo"> Parlance', '<img src="logo.png" alt="Logo"> Parlance', "de"],
      ["Line one<br>Line two", "Ligne un<br/>Ligne deux", "fr"],
      ["🎉 <b>Congrats</b>, %1$s!", "🎉 <b>Félicitations</b>, %1$s !", "fr"],
    ];
    for (const [base, value, language] of pairs) expect(check(base, value, language), value).toEqual([]);
  });

  test("a missing closing tag, a missing opening tag, a tag too few", () => {
    expect(tags(check("<b>Bold</b> text", "<b>Gras texte"))).toEqual([["tag-missing", "</b>"]]);
    expect(tags(check("<b>Bold</b> text", "Gras</b> texte"))).toEqual([["tag-missing", "<b>"]]);
    const [w] = check("<b>One</b> and <b>two</b>", "<b>Un</b> et deux</b>");
    expect(w).toMatchObject({ code: "tag-missing", placeholder: "<b>" });
    expect(w?.message).toContain("twice");
  });

  test("an extra tag, and a tag more often than in the base", () => {
    const value = "Bonjour <i>le monde</i>";
    expect(check("Hello world", value)).toMatchObject([
      { code: "tag-extra", placeholder: "<i>", offset: value.indexOf("<i>") },
      { code: "tag-extra", placeholder: "</i>" },
    ]);
    expect(tags(check("a<br>b", "a<br>b<br>c"))).toEqual([["tag-extra", "<br>"]]);
    // The offset points at the tag as written, attributes and all.
    const linked = 'Salut, <a href="https://example.com">ici</a>';
    expect(check("Hi, here", linked).map((w) => [w.placeholder, w.offset])).toEqual([
      ["<a>", linked.indexOf("<a ")],
      ["</a>", linked.indexOf("</a>")],
    ]);
  });

  test("a tag renamed by the translator is missing and extra", () => {
    expect(tags(check("<strong>Note</strong>", "<fort>Remarque</fort>"))).toEqual([
      ["tag-missing", "<strong>"],
      ["tag-missing", "</strong>"],
      ["tag-extra", "<fort>"],
      ["tag-extra", "</fort>"],
    ]);
  });

  test("comparisons and arrows are not tags", () => {
    expect(check("Use a < b when x > 3", "Utilisez a < b quand x > 3")).toEqual([]);
    expect(check("Next ->", "Suivant →")).toEqual([]);
    expect(check("2 < 3", "3 > 2")).toEqual([]);
  });

  test("angle-bracket metavariables of usage texts are not tags unless closed somewhere", () => {
    expect(check("Usage: %s [options] <host name>", "Utilisation : %s [options] <nom d’hôte>")).toEqual([]);
    expect(check("Press <Enter> to continue", "Appuyez sur <Entrée> pour continuer")).toEqual([]);
    expect(check("must have an =<val>", "benötigt ein »=<Wert>«", "de")).toEqual([]);
    // Once the element is closed in either text, it is markup: a lost closing tag is found.
    expect(tags(check("<i>Note</i>", "<i>Remarque"))).toEqual([["tag-missing", "</i>"]]);
    expect(tags(check("<i>Note", "<i>Remarque</i>"))).toEqual([["tag-extra", "</i>"]]);
  });

  test("XML placeholders of Android and XLIFF-style inline tags", () => {
    const base = 'Hello <xliff:g id="name" example="Bob">%1$s</xliff:g>!';
    expect(check(base, 'Bonjour <xliff:g id="name" example="Bob">%1$s</xliff:g> !')).toEqual([]);
    expect(tags(check(base, "Bonjour %1$s !"))).toEqual([
      ["tag-missing", "<xliff:g>"],
      ["tag-missing", "</xliff:g>"],
    ]);
  });

  test("ICU rich-text tags are case-sensitive names", () => {
    expect(tags(check("Click <Link>here</Link>", "Cliquez <link>ici</link>"))).toEqual([
      ["tag-missing", "<Link>"],
      ["tag-missing", "</Link>"],
      ["tag-extra", "<link>"],
      ["tag-extra", "</link>"],
    ]);
  });

  test("full-width angle brackets from an input method are pointed out", () => {
    const [w] = check("<b>New</b> messages", "＜b＞新着＜/b＞メッセージ", "ja");
    expect(w?.code).toBe("tag-missing");
    expect(w?.message).toContain("full-width");
  });
});

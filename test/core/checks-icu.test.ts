/**
 * ICU MessageFormat checks with real messages: the examples of the FormatJS and ICU user guides,
 * with translations as translators write them (including the mistakes they make).
 */
import { describe, expect, test } from "bun:test";
import { checkTranslation, type Warning } from "../../core/index.ts";

const check = (base: string | null, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });
const codes = (base: string | null, value: string, language = "fr") =>
  check(base, value, language).map((w) => w.code);

describe("faithful translations of real ICU messages pass", () => {
  const pairs: [string, string, string][] = [
    [
      "You have {numPhotos, plural, =0 {no photos.} =1 {one photo.} other {# photos.}}",
      "Vous avez {numPhotos, plural, =0 {aucune photo.} =1 {une photo.} other {# photos.}}",
      "fr",
    ],
    [
      "{gender, select, male {He} female {She} other {They}} will respond shortly.",
      "{gender, select, male {Er} female {Sie} other {Sie}} antwortet in Kürze.",
      "de",
    ],
    [
      "It's my cat's {year, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} birthday!",
      "C’est le {year, selectordinal, one {#er} other {#e}} anniversaire de mon chat !",
      "fr",
    ],
    ["Sale begins {start, date, medium}", "Der Ausverkauf beginnt am {start, date, medium}", "de"],
    [
      "The price of this bagel is {num, number, ::sign-always compact-short currency/GBP}",
      "Le prix de ce bagel est de {num, number, ::sign-always compact-short currency/GBP}",
      "fr",
    ],
    [
      "Almost {pctBlack, number, ::percent} of them are black.",
      "Presque {pctBlack, number, ::percent} d’entre eux sont noirs.",
      "fr",
    ],
    ["I have {numCats, number} cats.", "J’ai {numCats, number} chats.", "fr"],
    // Six plural categories in Arabic, placeholders inside right-to-left text.
    [
      "{count, plural, =0 {No files} one {# file} other {# files}}",
      "{count, plural, =0 {لا توجد ملفات} zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}",
      "ar",
    ],
    [
      "{count, plural, one {# new message} other {# new messages}} for {name}",
      "{count, plural, one {# новое сообщение} few {# новых сообщения} many {# новых сообщений} other {# нового сообщения}} для {name}",
      "ru",
    ],
    // A language without plural forms: one category, or no plural at all.
    ["{count, plural, one {# file} other {# files}}", "{count, plural, other {#個のファイル}}", "ja"],
    ["{count, plural, one {# file} other {# files}}", "{count}個のファイル", "ja"],
    ["{count, plural, one {# file} other {# files}}", "{count, number}個のファイル", "zh"],
    [
      "Hello {name}, you have {count, plural, one {one new message} other {# new messages}}",
      "שלום {name}, יש לך {count, plural, one {הודעה חדשה אחת} two {שתי הודעות חדשות} other {# הודעות חדשות}}",
      "he",
    ],
    [
      "{user} reacted with 🎉 to {count, plural, one {# post} other {# posts}}",
      "{user} a réagi avec 🎉 à {count, plural, one {# publication} other {# publications}}",
      "fr",
    ],
    // A doubled apostrophe is one apostrophe in ICU; the typographic one is plain text.
    ["Welcome to {app}", "Bienvenue dans l''{app}", "fr"],
    ["Welcome to {app}", "Bienvenue dans l’{app}", "fr"],
    // Rich-text tags of react-intl.
    [
      "Please <link>click here</link> to continue, {name}",
      "Veuillez <link>cliquer ici</link> pour continuer, {name}",
      "fr",
    ],
    ["Today is <b>{ts, date, ::yyyyMMdd}</b>", "Heute ist <b>{ts, date, ::yyyyMMdd}</b>", "de"],
  ];
  for (const [base, value, language] of pairs) {
    test(`${language}: ${value}`, () => expect(check(base, value, language)).toEqual([]));
  }

  test("the ICU user guide's party message, nested select/plural with offset, in French", () => {
    const base =
      "{gender_of_host, select, " +
      "female {{num_guests, plural, offset:1 =0 {{host} does not give a party.} =1 {{host} invites {guest} to her party.} =2 {{host} invites {guest} and one other person to her party.} other {{host} invites {guest} and # other people to her party.}}} " +
      "male {{num_guests, plural, offset:1 =0 {{host} does not give a party.} =1 {{host} invites {guest} to his party.} =2 {{host} invites {guest} and one other person to his party.} other {{host} invites {guest} and # other people to his party.}}} " +
      "other {{num_guests, plural, offset:1 =0 {{host} does not give a party.} =1 {{host} invites {guest} to their party.} =2 {{host} invites {guest} and one other person to their party.} other {{host} invites {guest} and # other people to their party.}}}}";
    const fr =
      "{gender_of_host, select, " +
      "female {{num_guests, plural, offset:1 =0 {{host} ne donne pas de fête.} =1 {{host} invite {guest} à sa fête.} one {{host} invite {guest} et # autre personne à sa fête.} other {{host} invite {guest} et # autres personnes à sa fête.}}} " +
      "male {{num_guests, plural, offset:1 =0 {{host} ne donne pas de fête.} =1 {{host} invite {guest} à sa fête.} one {{host} invite {guest} et # autre personne à sa fête.} other {{host} invite {guest} et # autres personnes à sa fête.}}} " +
      "other {{num_guests, plural, offset:1 =0 {{host} ne donne pas de fête.} =1 {{host} invite {guest} à sa fête.} one {{host} invite {guest} et # autre personne à sa fête.} other {{host} invite {guest} et # autres personnes à sa fête.}}}}";
    expect(check(base, fr)).toEqual([]);
    const withoutGuest = fr.replaceAll("{guest}", "quelqu’un");
    expect(check(base, withoutGuest)).toMatchObject([
      { code: "placeholder-missing", placeholder: "{guest}", syntax: "icu" },
    ]);
  });
});

describe("missing and extra ICU arguments", () => {
  test("a dropped argument is named, and a renamed one is missing and extra", () => {
    expect(check("Hello {name}", "Bonjour")).toMatchObject([
      { code: "placeholder-missing", placeholder: "{name}", syntax: "icu" },
    ]);
    const renamed = check("Hello {name}", "Bonjour {nom}");
    expect(renamed.map((w) => [w.code, w.placeholder])).toEqual([
      ["placeholder-missing", "{name}"],
      ["placeholder-extra", "{nom}"],
    ]);
    expect(renamed[1]?.message).toContain("{name}"); // says which names to use instead
    expect(renamed[1]?.offset).toBe("Bonjour ".length);
  });

  test("an argument in any branch of the base must appear somewhere in the translation", () => {
    const base = "{count, plural, =0 {Nobody} one {{name} only} other {{name} and # others}}";
    expect(
      check(base, "{count, plural, =0 {Personne} one {{name} seul} other {{name} et # autres}}"),
    ).toEqual([]);
    // {name} only in one branch of the translation is enough.
    expect(
      check(base, "{count, plural, =0 {Personne} one {Une personne} other {{name} et # autres}}"),
    ).toEqual([]);
    expect(codes(base, "{count, plural, =0 {Personne} one {Une personne} other {# personnes}}")).toEqual([
      "placeholder-missing",
    ]);
  });

  test("the number a plural shows (#) must still be shown", () => {
    const base = "{count, plural, one {# item} other {# items}}";
    const [w] = check(base, "{count, plural, one {un élément} other {des éléments}}");
    expect(w).toMatchObject({ code: "placeholder-missing", placeholder: "{count}" });
    expect(w?.message).toContain("#");
    // {count} inside the plural shows it just as well as #.
    expect(check(base, "{count, plural, one {{count} élément} other {{count} éléments}}")).toEqual([]);
    // A base that never shows the number does not require it.
    expect(
      check("{count, plural, one {One item} other {Several items}}", "{count, plural, other {Plusieurs}}"),
    ).toEqual([]);
  });

  test("a plural or select dropped entirely is named as such", () => {
    const [plural] = check("{count, plural, one {# file} other {# files}}", "Des fichiers");
    expect(plural?.message).toContain("plural");
    const [select] = check(
      "{gender, select, male {He} female {She} other {They}} replied",
      "Hän vastasi",
      "fi",
    );
    expect(select).toMatchObject({ code: "placeholder-missing", placeholder: "{gender}" });
    expect(select?.message).toContain("select");
  });

  test("an extra argument has no value at run time", () => {
    const value = "Bonjour {name}, vous avez {count} messages";
    const [w] = check("Hello {name}", value);
    expect(w).toMatchObject({
      code: "placeholder-extra",
      placeholder: "{count}",
      offset: value.indexOf("{count}"),
    });
  });

  test("the French apostrophe before { quotes the placeholder away, and the message says so", () => {
    const [w] = check("Welcome to {app}", "Bienvenue dans l'{app}");
    expect(w).toMatchObject({ code: "placeholder-missing", placeholder: "{app}" });
    expect(w?.message).toContain("apostrophe");
    expect(w?.message).toContain("’");
  });

  test("full-width braces typed by an input method are pointed out", () => {
    const [w] = check("Upload {count} files", "上传｛count｝个文件", "zh");
    expect(w?.code).toBe("placeholder-missing");
    expect(w?.message).toContain("full-width");
  });

  test("select cases must keep the base's names", () => {
    const base = "{gender, select, male {He} female {She} other {They}} liked your photo";
    const [w] = check(base, "{gender, select, masculin {Il} féminin {Elle} other {Iel}} a aimé votre photo");
    expect(w).toMatchObject({ code: "select-case-missing", placeholder: "{gender}" });
    expect(w?.message).toContain("male, female");
    expect(w?.message).toContain("masculin");
    expect(codes(base, "{gender, select, male {Il} other {Iel}} a aimé votre photo")).toEqual([
      "select-case-missing",
    ]);
    // Extra cases are harmless (the app never passes them): not a warning.
    expect(
      check(base, "{gender, select, male {Il} female {Elle} nonbinary {Iel} other {Iel}} a aimé"),
    ).toEqual([]);
  });

  test("plural categories are free: fewer (Japanese) or more (Arabic) than the base", () => {
    const base = "{n, plural, one {# day} other {# days}}";
    expect(check(base, "{n, plural, other {#日}}", "ja")).toEqual([]);
    expect(
      check(
        base,
        "{n, plural, zero {# يوم} one {يوم واحد} two {يومان} few {# أيام} many {# يومًا} other {# يوم}}",
        "ar",
      ),
    ).toEqual([]);
  });
});

describe("tags and line breaks inside ICU branches count per rendering", () => {
  test("a tag in every plural case is needed once, not once per case", () => {
    const base = "{n, plural, one {<b>#</b> file} other {<b>#</b> files}}";
    expect(check(base, "{n, plural, other {<b>#</b>件のファイル}}", "ja")).toEqual([]);
    expect(codes(base, "{n, plural, other {#件のファイル}}", "ja")).toEqual(["tag-missing", "tag-missing"]);
  });

  test("a tag whose attribute holds an argument stays one tag", () => {
    const base = 'Read <a href="{url}">the guide</a>, {name}';
    expect(check(base, 'Lisez <a href="{url}">le guide</a>, {name}')).toEqual([]);
    expect(codes(base, "Lisez le guide, {name}")).toEqual([
      "placeholder-missing",
      "tag-missing",
      "tag-missing",
    ]);
  });

  test("line breaks inside plural cases", () => {
    const base = "{n, plural, one {# file\nremoved} other {# files\nremoved}}";
    expect(check(base, "{n, plural, other {#件\n削除}}", "ja")).toEqual([]);
    expect(codes(base, "{n, plural, other {#件削除}}", "ja")).toEqual(["line-breaks"]);
  });
});

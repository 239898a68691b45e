/**
 * Realistic (base, translation) pairs for checks-50k: the mix of a real project, deterministic.
 * Plain text 40 %, ICU 20 % (half simple arguments; plural, select, selectordinal, skeletons), i18next 15 %
 * (interpolation, formatting, nesting, Trans tags), printf 10 % (Android, iOS, gettext), HTML 10 %,
 * multi-line and edge whitespace 5 %; translations in French, German, Arabic, Japanese and Russian;
 * about one pair in twenty carries a defect (a dropped placeholder, broken ICU, a lost tag…).
 * `~` in a template stands for a product word that stays untranslated, so no two values repeat.
 */
import type { CheckInput } from "../core/index.ts";

type Template = [base: string, translations: Record<string, string>];

const PLAIN: Template[] = [
  ["Save changes to ~", { fr: "Enregistrer les modifications de ~", de: "Änderungen an ~ speichern" }],
  ["Your ~ profile was updated.", { ja: "~のプロフィールを更新しました。", ru: "Профиль ~ обновлён." }],
  [
    "Are you sure you want to delete ~?",
    { fr: "Voulez-vous vraiment supprimer ~ ?", ar: "هل تريد بالتأكيد حذف ~؟" },
  ],
  ["Sign in with ~", { de: "Mit ~ anmelden", ja: "~でサインイン" }],
  [
    "Nothing here yet. Create your first ~.",
    { fr: "Rien pour l'instant. Créez votre premier ~.", ru: "Пока пусто. Создайте первый ~." },
  ],
];

/** Simple arguments are most ICU messages in real apps; half the templates here, the rest harder. */
const ICU: Template[] = [
  ["{user} invited you to ~", { de: "{user} hat dich zu ~ eingeladen", ja: "{user}さんが~に招待しました" }],
  [
    "Last updated {when, date, short} by {author}",
    {
      fr: "Mis à jour le {when, date, short} par {author}",
      ru: "Обновлено {when, date, short}, автор: {author}",
    },
  ],
  [
    "~ uses {used, number} of {quota, number} GB",
    {
      de: "~ nutzt {used, number} von {quota, number} GB",
      he: "~ משתמש ב-{used, number} מתוך {quota, number} GB",
    },
  ],
  [
    "Hello {name}, welcome to ~!",
    { fr: "Bonjour {name}, bienvenue sur ~ !", ar: "مرحبًا {name}، أهلًا بك في ~!" },
  ],
  [
    "You have {count, plural, =0 {no ~ items} one {# ~ item} other {# ~ items}}.",
    {
      ru: "У вас {count, plural, =0 {нет элементов ~} one {# элемент ~} few {# элемента ~} many {# элементов ~} other {# элемента ~}}.",
      ja: "~のアイテムが{count, plural, other {#件}}あります。",
      ar: "لديك {count, plural, zero {لا عناصر ~} one {عنصر ~ واحد} two {عنصران ~} few {# عناصر ~} many {# عنصرًا ~} other {# عنصر ~}}.",
    },
  ],
  [
    "{gender, select, male {He} female {She} other {They}} shared ~ with you.",
    {
      fr: "{gender, select, male {Il} female {Elle} other {Iel}} a partagé ~ avec vous.",
      de: "{gender, select, male {Er} female {Sie} other {Sie}} hat ~ mit dir geteilt.",
    },
  ],
  [
    "It's your {year, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} year with ~!",
    {
      fr: "C’est votre {year, selectordinal, one {#re} other {#e}} année avec ~ !",
      de: "Ihr {year}. Jahr mit ~!",
    },
  ],
  [
    "~ costs {price, number, ::currency/EUR} since {start, date, medium}",
    {
      de: "~ kostet seit {start, date, medium} {price, number, ::currency/EUR}",
      ja: "~は{start, date, medium}から{price, number, ::currency/EUR}です",
    },
  ],
];

const I18NEXT: Template[] = [
  [
    "{{count}} new messages in ~",
    { fr: "{{count}} nouveaux messages dans ~", de: "{{count}} neue Nachrichten in ~" },
  ],
  [
    "Last seen {{date, datetime}} on ~",
    {
      fr: "Vu pour la dernière fois le {{date, datetime}} sur ~",
      ja: "最終ログイン: {{date, datetime}}（~）",
    },
  ],
  [
    "$t(common.appName) ~: {{- link}}",
    { de: "$t(common.appName) ~: {{- link}}", ru: "$t(common.appName) ~: {{- link}}" },
  ],
  [
    "Hello <1>{{name}}</1>, you have {{count}} unread ~. <5>Open</5>.",
    { fr: "Bonjour <1>{{name}}</1>, vous avez {{count}} ~ non lus. <5>Ouvrir</5>." },
  ],
  [
    "Total: {{val, currency(USD)}} for ~",
    { de: "Gesamt: {{val, currency(USD)}} für ~", ar: "المجموع: {{val, currency(USD)}} لـ ~" },
  ],
];

const PRINTF: Template[] = [
  ["%1$s shared %2$d ~ files", { fr: "%1$s a partagé %2$d fichiers ~", ar: "شارك %1$s عدد %2$d من ملفات ~" }],
  ["%@ liked your ~", { ja: "%@さんがあなたの~にいいねしました", de: "%@ gefällt dein ~" }],
  [
    "Deleted %d of %d ~ items (%.1f%%)",
    { fr: "%d éléments ~ sur %d supprimés (%.1f %%)", ru: "Удалено %d из %d элементов ~ (%.1f%%)" },
  ],
  [
    "%(user)s invited you to ~",
    { de: "%(user)s hat dich zu ~ eingeladen", fr: "%(user)s vous a invité à ~" },
  ],
];

const HTML: Template[] = [
  [
    'Read the <a href="https://example.com/terms">terms of ~</a> first.',
    { fr: 'Lisez d’abord les <a href="https://example.com/fr/terms">conditions de ~</a>.' },
  ],
  [
    "<b>Warning:</b> ~ will be removed.<br/>This cannot be undone.",
    {
      de: "<b>Warnung:</b> ~ wird entfernt.<br/>Das kann nicht rückgängig gemacht werden.",
      ja: "<b>警告:</b> ~は削除されます。<br/>元に戻せません。",
    },
  ],
  [
    "Click <link>here</link> to open ~",
    { fr: "Cliquez <link>ici</link> pour ouvrir ~", ar: "انقر <link>هنا</link> لفتح ~" },
  ],
];

const LAYOUT: Template[] = [
  [
    "~\nSecond line of the notice",
    { fr: "~\nDeuxième ligne de l’avis", de: "~\nZweite Zeile des Hinweises" },
  ],
  ["Name of ~: ", { fr: "Nom de ~ : ", ja: "~の名前：" }],
  ["  Indented ~", { de: "  Eingerückt ~" }],
];

/** Cumulative shares: plain 40, ICU 20, i18next 15, printf 10, HTML 10, layout 5. */
const MIX: [number, Template[]][] = [
  [40, PLAIN],
  [60, ICU],
  [75, I18NEXT],
  [85, PRINTF],
  [95, HTML],
  [100, LAYOUT],
];

const WORDS =
  "Acme Atlas Beacon Cobalt Delta Ember Falcon Granite Harbor Ion Juniper Kestrel Lumen Meridian Nimbus Onyx".split(
    " ",
  );

/** One defect per 20 pairs, of the kinds translators really make. */
function defect(value: string, n: number): string {
  switch (n % 5) {
    case 0:
      return value.replace(/\{\{[^}]*\}\}|\{[^{}]*\}|%[\d$.]*[a-z@]/, ""); // a placeholder dropped
    case 1:
      return value.replace(/\}([^}]*)$/, "$1"); // a closing brace lost
    case 2:
      return value.replace(/<\/[a-z0-9]+>/, ""); // a closing tag lost
    case 3:
      return value.trimEnd() === value ? `${value} ` : value.trimEnd(); // edge whitespace changed
    default:
      return value.replace("{name}", "{nom}").replace("{{count}}", "{{nombre}}"); // a name translated
  }
}

export function checkPairs(rows: number): CheckInput[] {
  let seed = 0x1b873593;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  return Array.from({ length: rows }, (_, i) => {
    const share = next() % 100;
    const group = (MIX.find(([upTo]) => share < upTo) as [number, Template[]])[1];
    const [base, translations] = group[next() % group.length] as Template;
    const languages = Object.keys(translations);
    const language = languages[next() % languages.length] as string;
    const word = `${WORDS[next() % WORDS.length]} ${i}`;
    let value = (translations[language] as string).replaceAll("~", word);
    if (next() % 20 === 0) value = defect(value, i);
    return { base: base.replaceAll("~", word), value, baseLanguage: "en", language };
  });
}

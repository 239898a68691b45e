/**
 * Real translations in many scripts for files large enough to stream: every country's name in 24
 * languages (i18n-iso-countries), right-to-left, CJK, Indic and Thai among them. `en` holds the
 * English names, `fr` each language's own; a few values carry what the writers must escape (XML's
 * `&` and `<`, a quote, a tab, CR LF) or a character beyond the Basic Multilingual Plane.
 */
import countries from "i18n-iso-countries";

const LANGUAGES = [
  "ar",
  "bg",
  "cs",
  "de",
  "el",
  "es",
  "fa",
  "fi",
  "fr",
  "he",
  "hi",
  "hu",
  "ja",
  "ko",
  "pl",
  "pt",
  "ru",
  "sv",
  "th",
  "tr",
  "uk",
  "ur",
  "vi",
  "zh",
] as const;

const names = async (language: string): Promise<Record<string, string | string[]>> => {
  const locale = (await import(`i18n-iso-countries/langs/${language}.json`)).default;
  countries.registerLocale(locale);
  return countries.getNames(language);
};

const first = (name: string | string[] | undefined): string =>
  Array.isArray(name) ? (name[0] ?? "") : (name ?? "");

/** About 6,000 keys (`<language>.<country code>`); the base lacks one in ten, fr one in nine. */
export async function worldNames(): Promise<{ en: Record<string, string>; fr: Record<string, string> }> {
  const english = await names("en");
  const en: Record<string, string> = {};
  const fr: Record<string, string> = {};
  let i = 0;
  for (const language of LANGUAGES) {
    const own = await names(language);
    for (const code of Object.keys(english).sort()) {
      const key = `${language}.${code}`;
      const extra = i % 37 === 0 ? ' & <b>"bold"</b>\tend\r\n' : i % 41 === 0 ? " 🌍" : "";
      if (i % 10 !== 0) en[key] = `${first(english[code])}${extra}`;
      if (i % 9 !== 0) fr[key] = `${first(own[code]) || first(english[code])}${extra}`;
      i++;
    }
  }
  return { en, fr };
}

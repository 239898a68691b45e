/**
 * The public shape of translation checks. Codes are stable: records store them, filters and the
 * workspace count them, so a code is never renamed or reused. What each one means: docs/checks.md.
 */

/** One value to check against the base language's value of the same key. */
export interface CheckInput {
  /**
   * The base language's value of the key, or null when there is none (the key is missing in the
   * base language, or `value` is itself the base language's value): then only the checks that need
   * no base run.
   */
  base: string | null;
  /** The value being written. */
  value: string;
  /** Locale of `base`, as the project names it (`en`). */
  baseLanguage: string;
  /** Locale of `value` (`fr`, `ar`, `zh-Hant`). */
  language: string;
}

export const WARNING_CODES = [
  /** The translation is empty (or only whitespace) while the base has text. */
  "empty",
  /** The translation is not valid ICU MessageFormat although its base is (or, without a base, it is evidently meant as ICU). */
  "icu-syntax",
  /** A placeholder of the base (ICU argument, `{{name}}`, `$t(key)`, printf directive, `{name}`) is not in the translation. */
  "placeholder-missing",
  /** The translation has a placeholder the base does not have. */
  "placeholder-extra",
  /** Printf directives without positions (`%s`, `%d`) come in another order than in the base. */
  "placeholder-order",
  /** A case of an ICU `select` in the base has no case of that name in the translation. */
  "select-case-missing",
  /** An HTML/XML tag of the base is missing, or appears fewer times, in the translation. */
  "tag-missing",
  /** The translation has a tag the base does not, or more of it. */
  "tag-extra",
  /** The whitespace at the start differs (a space or line break present in one only). */
  "whitespace-leading",
  /** The whitespace at the end differs. */
  "whitespace-trailing",
  /** The number of line breaks inside the text differs. */
  "line-breaks",
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** The placeholder syntaxes Parlance recognises; see docs/checks.md for what each covers. */
export type PlaceholderSyntax = "icu" | "brace" | "i18next" | "printf" | "tag";

export interface Warning {
  code: WarningCode;
  /** For the translator: what is wrong and how to fix it, naming the placeholder or tag. */
  message: string;
  /** The placeholder or tag concerned, as written in the base (missing) or the translation (extra). */
  placeholder?: string;
  /** Which syntax the placeholder belongs to. */
  syntax?: PlaceholderSyntax;
  /** UTF-16 index in the value where the problem is, when it can be pointed at. */
  offset?: number;
}

/** At most this many warnings per value: enough to fix it; more means the text is wrong as a whole. */
export const MAX_WARNINGS = 20;

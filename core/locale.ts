import { invalid } from "./errors.ts";

/** CONTRACT §11: BCP 47 shape, compared exactly as written (`en` ≠ `EN`). */
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export const isLocale = (code: string): boolean => LOCALE.test(code);

/** The code itself, or a 400 naming the field. */
export function requireLocale(code: string, field = "language"): string {
  if (!isLocale(code)) {
    throw invalid(
      `${field} must be a locale code such as en, pt-BR or zh-Hant-TW (got ${JSON.stringify(code)})`,
    );
  }
  return code;
}

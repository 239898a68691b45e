/**
 * Translation checks: pure functions that warn about a value against its base (placeholders, tags,
 * ICU syntax, whitespace, line breaks). They never change a text. What each check does:
 * docs/checks.md.
 */
export { checkTranslation } from "./check-translation.ts";
export {
  type CheckInput,
  MAX_WARNINGS,
  type PlaceholderSyntax,
  WARNING_CODES,
  type Warning,
  type WarningCode,
} from "./types.ts";

/**
 * Translation checks: pure functions that warn about a value against its base (placeholders, tags,
 * ICU syntax, whitespace, line breaks). They never change a text. What each check does:
 * docs/checks.md.
 */
export { checkTranslation, MAX_WARNINGS } from "./check-translation.ts";
export {
  type CheckInput,
  type PlaceholderSyntax,
  WARNING_CODES,
  type Warning,
  type WarningCode,
} from "./types.ts";

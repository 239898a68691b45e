import { type MessageFormatElement, parse } from "@formatjs/icu-messageformat-parser";

/** Why a text is not ICU: the parser's error kind (`MISSING_OTHER_CLAUSE`) and where. */
export interface IcuError {
  kind: string;
  /** UTF-16 index of the problem in the text. */
  offset: number;
  /** The parser's own words, for errors that have no kind (an unsupported date pattern). */
  detail: string;
}

export type IcuParse = { ok: true; ast: MessageFormatElement[] } | { ok: false; error: IcuError };

/**
 * Parses as FormatJS's runtime (intl-messageformat, react-intl) does, except that tags are plain text:
 * HTML with attributes is common in ICU messages and valid for every other ICU implementation, and
 * tags are compared on their own (tags.ts). Never throws.
 */
export function parseIcu(text: string): IcuParse {
  try {
    return { ok: true, ast: parse(text, { ignoreTag: true }) };
  } catch (e) {
    return { ok: false, error: describeFailure(e) };
  }
}

function describeFailure(e: unknown): IcuError {
  if (e instanceof SyntaxError) {
    // The parser's SyntaxError carries the kind as its message and a location.
    const location = (e as SyntaxError & { location?: { start?: { offset?: number } } }).location;
    return { kind: e.message, offset: location?.start?.offset ?? 0, detail: e.message };
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return { kind: "TOO_DEEP", offset: 0, detail: e.message };
  }
  // The skeleton parsers throw plain errors for patterns they do not support.
  return { kind: "UNSUPPORTED", offset: 0, detail: e instanceof Error ? e.message : String(e) };
}

/**
 * A formatted argument (`{n, plural, …}`, `{d, date}`, …): a text written with one is evidently
 * meant as ICU, even without a base to compare with.
 */
const TYPED_ARGUMENT = /\{\s*[^\s{},]+\s*,\s*(?:plural|select|selectordinal|number|date|time)\s*[,}]/;

export const looksLikeIcu = (text: string): boolean => text.includes("{") && TYPED_ARGUMENT.test(text);

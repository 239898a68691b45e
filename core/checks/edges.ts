import type { Warning } from "./types.ts";

/**
 * Bidirectional marks (LRM, RLM, ALM, embeddings, isolates) are invisible and often sit at the ends
 * of right-to-left text; whitespace behind them still counts as leading or trailing. A stray BOM
 * is invisible too, not a space.
 */
const isInvisible = (c: number) =>
  c === 0x200e ||
  c === 0x200f ||
  c === 0x061c ||
  (c >= 0x202a && c <= 0x202e) ||
  (c >= 0x2066 && c <= 0x2069) ||
  c === 0xfeff;
/** JavaScript's `\s` (U+FEFF aside, invisible above). */
const isSpace = (c: number) =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const isBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** The whitespace at one end of a text, as what matters about it. */
export interface Run {
  /** UTF-16 units the run spans, invisible marks included. */
  length: number;
  breaks: number;
  tabs: number;
  /** Every other whitespace character: space, no-break space, ideographic space… */
  spaces: number;
}

function run(text: string, fromEnd: boolean): Run {
  const r: Run = { length: 0, breaks: 0, tabs: 0, spaces: 0 };
  const n = text.length;
  for (let k = 0; k < n; k++) {
    const i = fromEnd ? n - 1 - k : k;
    const c = text.charCodeAt(i);
    const invisible = isInvisible(c);
    if (!invisible && !isSpace(c)) break;
    r.length++;
    if (invisible) continue;
    // \r\n is one break: count the \n, skip the \r that pairs with it.
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue;
    if (isBreak(c)) r.breaks++;
    else if (c === 0x09) r.tabs++;
    else r.spaces++;
  }
  return r;
}

const EMPTY_RUN: Run = { length: 0, breaks: 0, tabs: 0, spaces: 0 };

export const leadingRun = (text: string): Run => run(text, false);
export const trailingRun = (text: string): Run => run(text, true);

const plural = (n: number, one: string, many: string) => (n === 1 ? `a ${one}` : `${n} ${many}`);

export function describeRun(r: Run): string {
  const parts: string[] = [];
  if (r.breaks) parts.push(plural(r.breaks, "line break", "line breaks"));
  if (r.tabs) parts.push(plural(r.tabs, "tab", "tabs"));
  if (r.spaces) parts.push(plural(r.spaces, "space", "spaces"));
  if (parts.length === 0) return "none";
  return parts.length === 1 ? (parts[0] as string) : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * Languages written without spaces between words: a space the base keeps at an end to join words
 * ("Name: " + value) rightly disappears in them. Line breaks still count.
 */
const NO_WORD_SPACES = /^(zh|ja|yue|wuu|th|lo|km|my)(-|$)/i;

/**
 * Runs differ when one has line breaks the other lacks, or one has spaces or tabs and the other
 * none. Two spaces against one, or a no-break space against a space, is typography, not a bug.
 */
function differ(base: Run, value: Run, language: string): boolean {
  if (base.breaks !== value.breaks) return true;
  const baseSpace = base.spaces + base.tabs > 0;
  const valueSpace = value.spaces + value.tabs > 0;
  if (baseSpace && !valueSpace && NO_WORD_SPACES.test(language)) return false;
  return baseSpace !== valueSpace;
}

/** French sets a space before `: ; ! ? »`: `; ` → ` ; ` is typography, not a lost separator. */
const frenchSpacing = (base: Run, value: Run, text: string, language: string): boolean =>
  /^fr(-|$)/i.test(language) &&
  base.breaks === value.breaks &&
  base.spaces + base.tabs === 0 &&
  ":;!?»".includes(text.charAt(value.length) || "\u0000");

export function whitespaceWarnings(base: string, value: string, language: string): Warning[] {
  const out: Warning[] = [];
  const bl = leadingRun(base);
  const vl = leadingRun(value);
  if (differ(bl, vl, language) && !frenchSpacing(bl, vl, value, language)) {
    out.push({
      code: "whitespace-leading",
      message:
        `The base starts with ${describeRun(bl)}, the translation with ${describeRun(vl)}. ` +
        "Keep the same whitespace at the start as the base: the app may join this text to another.",
      offset: 0,
    });
  }
  // A text that is all whitespace has it all at the start: one warning, not two.
  const bt = bl.length === base.length ? EMPTY_RUN : trailingRun(base);
  const vt = vl.length === value.length ? EMPTY_RUN : trailingRun(value);
  if (differ(bt, vt, language)) {
    out.push({
      code: "whitespace-trailing",
      message:
        `The base ends with ${describeRun(bt)}, the translation with ${describeRun(vt)}. ` +
        "Keep the same whitespace at the end as the base: the app may join this text to another.",
      offset: value.length,
    });
  }
  return out;
}

/** Line breaks inside a text: all of them minus those at its ends. */
export function innerBreaks(total: number, text: string): number {
  const lead = leadingRun(text);
  if (lead.length === text.length) return 0;
  return total - lead.breaks - trailingRun(text).breaks;
}

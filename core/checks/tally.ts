import type { PlaceholderSyntax } from "./types.ts";

/**
 * What a text holds, counted. In plain text every occurrence counts; in ICU text a tally is the most
 * one rendering can show: the parts of a sequence add up, the cases of a plural or select take the
 * largest (a language with fewer plural cases must not look like it lost a tag).
 */
export interface Entry {
  syntax: PlaceholderSyntax;
  /** Identity for comparison (`{{name}}`, `%1$s`, `</b>`). */
  key: string;
  /** As written (first occurrence), for messages. */
  text: string;
  count: number;
  /**
   * Compared by count (tags, printf directives without positions) rather than by presence (named
   * placeholders may be repeated or merged freely).
   */
  counted: boolean;
}

export interface Tally {
  entries: Map<string, Entry>;
  /** Line breaks (`\n`, `\r\n`, `\r`, U+2028, U+2029). */
  breaks: number;
  /** Two-character `\n` escapes, as Android and iOS sources keep them. */
  escapedBreaks: number;
}

/** Shared by every tally until its first entry: most texts have nothing to count. Never written. */
const NO_ENTRIES: Map<string, Entry> = new Map();

export const emptyTally = (): Tally => ({ entries: NO_ENTRIES, breaks: 0, escapedBreaks: 0 });

export function addEntry(t: Tally, e: Omit<Entry, "count">, count = 1): void {
  if (t.entries === NO_ENTRIES) t.entries = new Map();
  const found = t.entries.get(e.key);
  if (found) found.count += count;
  else t.entries.set(e.key, { syntax: e.syntax, key: e.key, text: e.text, count, counted: e.counted });
}

/** `into += from` (a sequence); null stands for an empty tally, the common case in ICU walks. */
export function addTally(into: Tally | null, from: Tally | null): Tally | null {
  if (from === null) return into;
  if (into === null) return from;
  for (const e of from.entries.values()) addEntry(into, e, e.count);
  into.breaks += from.breaks;
  into.escapedBreaks += from.escapedBreaks;
  return into;
}

/** The most any one of `cases` shows, key by key (the cases of a plural or select). */
export function maxTally(cases: readonly (Tally | null)[]): Tally | null {
  let out: Tally | null = null;
  for (const c of cases) {
    if (c === null) continue;
    out ??= { entries: new Map(), breaks: 0, escapedBreaks: 0 };
    for (const e of c.entries.values()) {
      const found = out.entries.get(e.key);
      if (!found) out.entries.set(e.key, { ...e });
      else if (e.count > found.count) found.count = e.count;
    }
    out.breaks = Math.max(out.breaks, c.breaks);
    out.escapedBreaks = Math.max(out.escapedBreaks, c.escapedBreaks);
  }
  return out;
}

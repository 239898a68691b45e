/**
 * Text search folding: lower case with the accents removed, so `é`, `É` and `e` match alike. Both
 * the stored search text and the query go through it, so stores compare folded texts with a plain
 * substring test and need no collation or extension of their own.
 */
const MARKS = /\p{M}/gu;

export const foldForSearch = (text: string): string => text.normalize("NFD").replace(MARKS, "").toLowerCase();

/** A record's search text: key and value folded, joined by U+0001 (no key or value holds it). */
export const searchText = (key: string, value: string): string =>
  `${foldForSearch(key)}\u0001${foldForSearch(value)}`;

const ASCII = /^[\x00-\x7f]*$/;

/**
 * What a store keeps of a record's search text: null when key and value are plain ASCII, whose
 * folding is ASCII lower-casing, which the store's own `lower(key) || char(1) || lower(value)`
 * computes when it searches. Most records are ASCII, so most writes store and index nothing extra.
 */
export const storedSearchText = (key: string, value: string): string | null =>
  ASCII.test(key) && ASCII.test(value) ? null : searchText(key, value);

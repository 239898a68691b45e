/**
 * Text search folding: lower case with the accents removed, so `é`, `É` and `e` match alike. Both
 * the stored search text and the query go through it, so stores compare folded texts with a plain
 * substring test and need no collation or extension of their own.
 */
const MARKS = /\p{M}/gu;

export const foldForSearch = (text: string): string => text.normalize("NFD").replace(MARKS, "").toLowerCase();

/** A record's stored search text: key and value folded, joined by U+0001 (no key or value holds it). */
export const searchText = (key: string, value: string): string =>
  `${foldForSearch(key)}\u0001${foldForSearch(value)}`;

/**
 * Ascending Unicode code-point order: the order of exports and listings. JavaScript's default
 * string comparison orders UTF-16 code units, which puts U+E000–U+FFFF after astral characters;
 * SQLite's BINARY and Postgres' "C" collations order UTF-8 bytes, which is code-point order.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (D800–DFFF) starts a code point above FFFF, so it sorts after every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

import { invalid } from "./errors.ts";

/**
 * Characters no export format can carry (CONTRACT §6): C0 controls other than TAB, LF and CR,
 * U+FFFE, U+FFFF and lone surrogates. DEL and C1 controls are allowed (§11).
 */
const UNCARRIABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasUncarriableCharacter = (s: string): boolean => UNCARRIABLE.test(s);

const codePoint = (unit: number) => `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The first character no export can carry, named for a person: "U+0000 (a control character) at
 * character 4". Null when there is none.
 */
export function uncarriableCharacter(s: string): string | null {
  const m = UNCARRIABLE.exec(s);
  if (!m) return null;
  const unit = s.charCodeAt(m.index);
  const kind =
    unit >= 0xd800 && unit <= 0xdfff
      ? "a lone surrogate"
      : unit >= 0xfffe
        ? "a noncharacter"
        : "a control character";
  return `${codePoint(unit)} (${kind}) at character ${codePointLength(s.slice(0, m.index)) + 1}`;
}

/** Number of code points (a surrogate pair counts once). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** UTF-8 byte length without allocating the encoded bytes. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** 400 for a name that is empty (or spaces only) or longer than 100 characters, saying which. */
export function requireNameLength(name: string): void {
  if (name.trim() === "") throw invalid("name is empty; give 1 to 100 characters besides spaces");
  const length = [...name].length;
  if (length > 100) throw invalid(`name is ${length} characters long; the limit is 100`);
}

/**
 * printf directives as C, gettext, Android (`%1$s`), iOS (`%@`, `%ld`), Python (`%(name)s`) and Qt
 * (`%1`) write them, with glibc's `I` flag (locale digits) and gettext's `%<PRId64>` macros.
 * `%%` is a literal percent sign, not a placeholder.
 *
 * Deliberately not a directive: `%` followed by a space. A space is a legal printf flag, but "100 % de
 * remise" and "50% off" are far more common than `% d`, so the space flag is not recognised.
 */
const DIRECTIVE =
  /%%|%(?:(\d+)\$|\(([^()\s]{1,64})\))?([-+0#'I]*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcCsSp@r]|<PRI\w{1,12}>)|%(\d{1,2})(?![\d$])/g;

/**
 * A strftime conversion that printf does not have (`%H:%M`, `%Y`, `%B`, `%I` not followed by a
 * printf conversion, since glibc's printf has an `I` flag). A base with one is a date format, which
 * translators may rearrange freely: its `%` directives are not compared.
 */
const STRFTIME =
  /%[-_0^#]?\d*[EO]?(?:[BHMTYZbkmRrUVWwyPD]|I(?![-+0#'.\d]*(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaA]))/;

/** Whether the base is a printf string: it has a directive and is not a strftime format. */
export const isPrintf = (base: string): boolean =>
  base.includes("%") && !STRFTIME.test(base) && scanPrintf(base).length > 0;

export interface Directive {
  /** As written, for messages. */
  text: string;
  /** `1$s`-style position when written with one; Qt's `%1` is positional too. */
  position: number | null;
  /** Python's `%(name)s`. */
  name: string | null;
  /** Length modifier and conversion, `i` read as `d` (they are the same conversion). */
  conversion: string;
}

export function scanPrintf(text: string): Directive[] {
  if (!text.includes("%")) return [];
  const out: Directive[] = [];
  DIRECTIVE.lastIndex = 0;
  for (let m = DIRECTIVE.exec(text); m !== null; m = DIRECTIVE.exec(text)) {
    const written = m[0];
    if (written === "%%") continue;
    const qt = m[8];
    if (qt !== undefined) {
      out.push({ text: written, position: Number(qt), name: null, conversion: "qt" });
      continue;
    }
    const name = m[2] ?? null;
    const conv = m[7] as string;
    // %r is Python's repr(): a directive only in its named form; elsewhere "%r" is ordinary text.
    if (conv === "r" && name === null) continue;
    out.push({
      text: written,
      position: m[1] === undefined ? null : Number(m[1]),
      name,
      conversion: (m[6] ?? "") + (conv === "i" ? "d" : conv),
    });
  }
  return out;
}

/** Identity of a directive that has a position or a name; null for a sequential one (`%s`). */
export function fixedKey(d: Directive): string | null {
  if (d.name !== null) return `%(${d.name})${d.conversion}`;
  if (d.conversion === "qt") return `%${d.position}`;
  if (d.position !== null) return `%${d.position}$${d.conversion}`;
  return null;
}

/** A sequential directive keyed by its conversion only (`%s`, `%ld`). */
export const sequentialKey = (d: Directive): string => `%${d.conversion}`;

/**
 * Percent signs that start no directive and are not `%%` ("100 % sûr", a trailing "%"). printf
 * reads each as the start of a directive: garbage at best, a crash on Android.
 */
export function strayPercents(text: string, directives: readonly Directive[]): number {
  let total = 0;
  for (let i = text.indexOf("%"); i >= 0; i = text.indexOf("%", i + 1)) total++;
  let used = 0;
  for (const d of directives) for (const c of d.text) if (c === "%") used++;
  const escaped = text.split("%%").length - 1;
  return Math.max(0, total - used - 2 * escaped);
}

import { compareTallies } from "./compare.ts";
import { type Directive, fixedKey, sequentialKey, strayPercents } from "./printf.ts";
import { addEntry, emptyTally, type Tally } from "./tally.ts";
import type { Warning } from "./types.ts";

/**
 * With positions anywhere (`%1$s`), directives without one count as positions 1, 2, … in order, so
 * a translation may turn the base's `%s … %d` into `%2$d … %1$s`. Without positions on either side
 * they are compared by conversion and count, and then by order.
 */
function tally(directives: readonly Directive[], positional: boolean): Tally {
  const t = emptyTally();
  let next = 0;
  for (const d of directives) {
    const key = fixedKey(d);
    if (key !== null) addEntry(t, { syntax: "printf", key, text: d.text, counted: false });
    else if (positional)
      addEntry(t, { syntax: "printf", key: `%${++next}$${d.conversion}`, text: d.text, counted: false });
    else addEntry(t, { syntax: "printf", key: sequentialKey(d), text: d.text, counted: true });
  }
  return t;
}

const sequential = (ds: readonly Directive[]) => ds.filter((d) => fixedKey(d) === null);
const numbered = (d: Directive, n: number) => d.text.replace(/^%/, `%${n}$`);

/** printf directives of a plain (non-ICU) base and translation, and stray `%` signs. */
export function comparePrintf(
  baseText: string,
  base: readonly Directive[],
  value: readonly Directive[],
  text: string,
  out: Warning[],
): void {
  const stray = strayPercents(text, value);
  if (stray > strayPercents(baseText, base)) {
    out.push({
      code: "placeholder-extra",
      message:
        "The translation has a % sign that starts no placeholder, but printf reads every % as the start of one " +
        "(garbage or a crash): write %% for a percent sign.",
      placeholder: "%",
      syntax: "printf",
    });
  }
  const positional = [...base, ...value].some((d) => d.position !== null && d.conversion !== "qt");
  const before = out.length;
  compareTallies(tally(base, positional), tally(value, positional), text, out);
  if (positional || out.length > before) return;
  const b = sequential(base);
  const v = sequential(value);
  if (b.every((d, i) => d.conversion === v[i]?.conversion)) return;
  out.push({
    code: "placeholder-order",
    message:
      `The translation has the placeholders in another order (${v.map((d) => d.text).join(", ")}) than the base ` +
      `(${b.map((d) => d.text).join(", ")}), but printf fills them strictly in turn, so values would land in the wrong place. ` +
      `Keep the base's order, or number them to reorder freely: ${b.map((d, i) => numbered(d, i + 1)).join(", ")}.`,
    syntax: "printf",
  });
}

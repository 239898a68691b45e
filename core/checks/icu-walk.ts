import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";
import { fixedKey, sequentialKey } from "./printf.ts";
import { type Syntaxes, scanText, worthScanning } from "./scan.ts";
import { addEntry, addTally, emptyTally, maxTally, type Tally } from "./tally.ts";

/** How a message uses one argument, over all its cases. */
export interface ArgumentUse {
  /** Shown as a value somewhere: `{x}`, `{x, number}`, `{x, date}`, or `#` inside x's plural. */
  shown: boolean;
  /** Chooses between cases: the kind of the first plural/select/selectordinal on it, if any. */
  chooses: "plural" | "select" | "selectordinal" | null;
}

export interface IcuInventory {
  /** Every argument in order of first appearance, whatever branch it is in. */
  args: Map<string, ArgumentUse>;
  /** Case names of every `select` per argument. */
  selectCases: Map<string, Set<string>>;
  /** Tags, printf, `$t()` and line breaks of the literal text, as one rendering shows them at most. */
  tally: Tally;
}

/** Stands in for an argument inside literal text, so a tag such as `<a href="{url}">` stays whole. */
const ARGUMENT_MARK = "\uFFFC";

export function inventory(ast: MessageFormatElement[], syntaxes: Syntaxes): IcuInventory {
  const inv: IcuInventory = { args: new Map(), selectCases: new Map(), tally: emptyTally() };
  inv.tally = walk(ast, null, inv, syntaxes) ?? emptyTally();
  return inv;
}

function use(inv: IcuInventory, name: string, shown: boolean, chooses: ArgumentUse["chooses"]): void {
  const found = inv.args.get(name);
  if (!found) inv.args.set(name, { shown, chooses });
  else {
    found.shown ||= shown;
    found.chooses ??= chooses;
  }
}

/**
 * Literal text of one sequence, scanned; printf directives without
 * positions are counted by conversion here.
 */
export function scanLiteral(text: string, syntaxes: Syntaxes): Tally {
  const { tally, printf } = scanText(text, syntaxes);
  for (const d of printf) {
    const key = fixedKey(d);
    if (key !== null) addEntry(tally, { syntax: "printf", key, text: d.text, counted: false });
    else addEntry(tally, { syntax: "printf", key: sequentialKey(d), text: d.text, counted: true });
  }
  return tally;
}

function walk(
  elements: readonly MessageFormatElement[],
  plural: string | null,
  inv: IcuInventory,
  syntaxes: Syntaxes,
): Tally | null {
  let total: Tally | null = null;
  let text = "";
  // Whether the literal text so far holds anything to count; asked of each literal as the parser
  // gave it, before the pieces are joined.
  let worth = false;
  for (const el of elements) {
    switch (el.type) {
      case TYPE.literal:
        text += el.value;
        worth ||= worthScanning(el.value, syntaxes);
        break;
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        use(inv, el.value, true, null);
        text += ARGUMENT_MARK;
        break;
      case TYPE.pound:
        if (plural !== null) use(inv, plural, true, null);
        text += ARGUMENT_MARK;
        break;
      case TYPE.plural:
      case TYPE.select: {
        const isSelect = el.type === TYPE.select;
        use(
          inv,
          el.value,
          false,
          isSelect ? "select" : el.pluralType === "ordinal" ? "selectordinal" : "plural",
        );
        if (isSelect) {
          const cases = inv.selectCases.get(el.value) ?? new Set<string>();
          for (const key of Object.keys(el.options)) cases.add(key);
          inv.selectCases.set(el.value, cases);
        }
        if (worth) total = addTally(total, scanLiteral(text, syntaxes));
        text = "";
        worth = false;
        const inner = isSelect ? plural : el.value;
        const cases = Object.values(el.options).map((o) => walk(o.value, inner, inv, syntaxes));
        total = addTally(total, maxTally(cases));
        break;
      }
      case TYPE.tag:
        // Only with ignoreTag off, which parseIcu never uses; read the children all the same.
        total = addTally(total, walk(el.children, plural, inv, syntaxes));
        break;
    }
  }
  if (worth) total = addTally(total, scanLiteral(text, syntaxes));
  return total;
}

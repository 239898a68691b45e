import { missingHint } from "./hints.ts";
import type { ArgumentUse, IcuInventory } from "./icu-walk.ts";
import { escapeRegExp } from "./regexp.ts";
import { MAX_WARNINGS, type Warning } from "./types.ts";

function missingArgument(name: string, b: ArgumentUse, value: string): Warning {
  const hint = missingHint(`{${name}}`, value, name);
  let message: string;
  if (b.chooses === "select") {
    message =
      `The base varies its wording with {${name}} (a select); the translation never uses {${name}}. ` +
      `Keep the select with the base's case names, as in {${name}, select, … other {…}}, unless your language never varies here.`;
  } else if (b.chooses !== null) {
    message =
      `The base varies its wording with {${name}} (a ${b.chooses}); the translation never uses {${name}}. ` +
      `Keep the ${b.chooses}, with the cases your language needs: {${name}, ${b.chooses}, … other {…}}.`;
  } else {
    message = `The translation does not use {${name}}, which the base has. Put {${name}} where its value belongs; the name stays exactly as in the base.`;
  }
  return { code: "placeholder-missing", message: message + hint, placeholder: `{${name}}`, syntax: "icu" };
}

/**
 * ICU arguments by name, whatever their use: `{count}` in a language without plural forms stands
 * for the base's `{count, plural, …}`. An argument the base shows must be shown somewhere in the
 * translation too (`#` counts), and every case name of a base `select` must be kept.
 */
export function compareIcu(base: IcuInventory, value: IcuInventory, text: string, out: Warning[]): void {
  for (const [name, b] of base.args) {
    if (out.length >= MAX_WARNINGS) return;
    const v = value.args.get(name);
    if (!v) out.push(missingArgument(name, b, text));
    else if (b.shown && !v.shown) {
      out.push({
        code: "placeholder-missing",
        message:
          `The base shows the value of {${name}}; the translation only uses it to choose a case and never shows it. ` +
          `Add # (inside the plural) or {${name}} where the number belongs.`,
        placeholder: `{${name}}`,
        syntax: "icu",
      });
    }
  }
  const names = [...base.args.keys()].map((n) => `{${n}}`);
  for (const name of value.args.keys()) {
    if (out.length >= MAX_WARNINGS) return;
    if (base.args.has(name)) continue;
    const w: Warning = {
      code: "placeholder-extra",
      message:
        `The translation uses {${name}}, which the base does not have: the app gives it no value (FormatJS stops with an error). ` +
        (names.length > 0
          ? `Use the base's names: ${names.join(", ")}.`
          : "Remove it, or write '{' to show a brace."),
      placeholder: `{${name}}`,
      syntax: "icu",
    };
    const at = new RegExp(`\\{\\s*${escapeRegExp(name)}\\s*[,}]`).exec(text);
    if (at) w.offset = at.index;
    out.push(w);
  }
  for (const [name, cases] of base.selectCases) {
    const theirs = value.selectCases.get(name);
    if (!theirs) continue; // no select on it: reported above if the argument is gone altogether
    const lacking = [...cases].filter((c) => !theirs.has(c));
    if (lacking.length === 0) continue;
    const unknown = [...theirs].filter((c) => !cases.has(c));
    const which = lacking.length === 1 ? `the case ${lacking[0]}` : `the cases ${lacking.join(", ")}`;
    out.push({
      code: "select-case-missing",
      message:
        `The base's select on {${name}} has ${which}, which the translation lacks, so the app would show the other case instead. ` +
        "Keep every case name of the base untranslated; translate only the text in braces." +
        (unknown.length > 0 ? ` The translation has cases the base does not: ${unknown.join(", ")}.` : ""),
      placeholder: `{${name}}`,
      syntax: "icu",
    });
  }
}

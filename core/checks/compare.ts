import { missingHint } from "./hints.ts";
import { escapeRegExp } from "./regexp.ts";
import { closedNames, isTag } from "./tags.ts";
import type { Entry, Tally } from "./tally.ts";
import { MAX_WARNINGS, type Warning } from "./types.ts";

export const times = (n: number): string =>
  n === 0 ? "none" : n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;

/** `%s (value 2)` when a printf directive without a position is compared by position. */
function shown(e: Entry): string {
  if (e.syntax !== "printf") return e.text;
  const position = /^%(\d+)\$/.exec(e.key);
  return position && !e.text.includes("$") ? `${e.text} (value ${position[1]})` : e.text;
}

function missing(b: Entry, have: number, value: string): Warning {
  const w = { placeholder: b.text, syntax: b.syntax };
  if (b.syntax === "tag") {
    const counts =
      b.count === 1
        ? `the tag ${b.key}, which the base has`
        : `${b.key}: the base has it ${times(b.count)}, the translation ${times(have)}`;
    return {
      code: "tag-missing",
      message: `The translation is missing ${counts}. Keep the base's tags around the words they mark; translate only the text between them.${missingHint(b.key, value)}`,
      ...w,
    };
  }
  const nested = b.key.startsWith("$t(")
    ? "the app inserts another text there"
    : "the app puts a value there";
  const message = b.counted
    ? `The base has ${b.text} ${times(b.count)}, the translation ${times(have)}: printf fills each one with the next value in turn, so keep every one.`
    : `The translation does not have ${shown(b)}, which the base has. Keep it exactly as written: ${nested}.`;
  return { code: "placeholder-missing", message: message + missingHint(b.text, value), ...w };
}

/** Where a tag key (`<a>`, `</a>`, `<br>`) is written in `value`, attributes and all; -1 if nowhere. */
function tagOffset(key: string, value: string): number {
  const closing = key.startsWith("</");
  const name = escapeRegExp(key.replace(/^<\/?|\/?>$/g, ""));
  return value.search(new RegExp(closing ? `</${name}\\s*>` : `<${name}(?=[\\s/>])`));
}

function extra(v: Entry, had: number, base: Tally, value: string): Warning {
  const w: Warning = { code: "placeholder-extra", message: "", placeholder: v.text, syntax: v.syntax };
  const at = v.syntax === "tag" ? tagOffset(v.key, value) : value.indexOf(v.text);
  if (at >= 0) w.offset = at;
  if (v.syntax === "tag") {
    w.code = "tag-extra";
    w.message =
      had === 0
        ? `The translation has the tag ${v.key}, which the base does not. Use only the tags of the base.`
        : `The translation has ${v.key} ${times(v.count)}, the base ${times(had)}. Use the tags of the base, as many times as the base does.`;
    return w;
  }
  if (v.counted) {
    w.message = `The translation has ${v.text} ${times(v.count)}, the base ${times(had)}: printf would read a value the app does not pass, which shows garbage or crashes.`;
    return w;
  }
  const theirs = [...base.entries.values()].filter((e) => e.syntax === v.syntax).map(shown);
  const instead = theirs.length > 0 ? ` The base's placeholders are ${theirs.join(", ")}.` : "";
  const effect = v.key.startsWith("$t(")
    ? "it inserts a text the base does not show"
    : "the app passes no value for it";
  w.message = `The translation has ${shown(v)}, which the base does not: ${effect}. Use only the base's placeholders, exactly as written.${instead}`;
  return w;
}

/**
 * Placeholders and tags of `base` missing from `value`, and those `value` adds. Named placeholders
 * are compared by presence (a translation may repeat one or need it once); tags and printf
 * directives without positions by count.
 */
export function compareTallies(base: Tally, value: Tally, text: string, out: Warning[]): void {
  const closed = closedNames([...base.entries.keys(), ...value.entries.keys()]);
  const counts = (e: Entry) => e.syntax !== "tag" || isTag(e.key, closed);
  for (const b of base.entries.values()) {
    if (out.length >= MAX_WARNINGS) return;
    if (!counts(b)) continue;
    const have = value.entries.get(b.key)?.count ?? 0;
    if (b.counted ? have < b.count : have === 0) out.push(missing(b, have, text));
  }
  for (const v of value.entries.values()) {
    if (out.length >= MAX_WARNINGS) return;
    if (!counts(v)) continue;
    const had = base.entries.get(v.key)?.count ?? 0;
    if (v.counted ? v.count > had : had === 0) out.push(extra(v, had, base, text));
  }
}

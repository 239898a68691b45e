/**
 * core/checks/icu-common.ts reads common ICU without the parser. It must agree with FormatJS's parser
 * exactly: the same tree whenever it answers, and INVALID only where the parser fails too. Checked on
 * generated messages (valid, and mutated into invalid ones) and on real ones.
 */
import { describe, expect, test } from "bun:test";
import { parse } from "@formatjs/icu-messageformat-parser";
import fc from "fast-check";
import { checkPairs } from "../../bench/checks-data.ts";
import { INVALID, parseCommonIcu } from "../../core/checks/icu-common.ts";

function reference(text: string): unknown {
  try {
    return parse(text, { ignoreTag: true });
  } catch {
    return null;
  }
}

/** What the fast reader answered: "tree" (equal to the parser's), "invalid", or "parser" (gave up). */
function agree(text: string): "tree" | "invalid" | "parser" {
  const mine = parseCommonIcu(text);
  const theirs = reference(text);
  if (mine === INVALID) {
    if (theirs !== null) throw new Error(`INVALID, but the parser reads ${JSON.stringify(text)}`);
    return "invalid";
  }
  if (mine === null) return "parser";
  expect(mine).toEqual(theirs as never);
  return "tree";
}

const literal = fc.constantFrom(
  "Hello ",
  " files",
  "l'équipe ",
  "it''s ",
  "'{quoted}' ",
  "# ",
  "} ",
  "<b>",
  "</b>",
  '<a href="x">',
  "\n",
  "مرحبا ",
  "שלום ",
  "東京 ",
  "🎉",
  "\u200F",
  "'",
  "'#'",
  " ",
);
const name = fc.constantFrom("name", "count", "n", "user_name", "0", "имя", "名前", "a\u200E", "x-y", "a.b");
const space = fc.constantFrom("", " ", "  ", "\t", "\u200E");
const caseKey = fc.constantFrom(
  "one",
  "other",
  "few",
  "many",
  "=0",
  "=1",
  "male",
  "female",
  "foo",
  "=+1",
  "offset",
);

const message: fc.Memo<string> = fc.memo((depth) => {
  const simple = fc.tuple(space, name, space).map(([a, n, b]) => `{${a}${n}${b}}`);
  const formatted = fc
    .tuple(
      name,
      fc.constantFrom("number", "date", "time", "numbr"),
      fc.constantFrom("", ", percent", ", short", ", ::percent", ", ", ", 'x'"),
    )
    .map(([n, t, s]) => `{${n}, ${t}${s}}`);
  const pound = fc.constant("#");
  const choice = fc
    .tuple(
      name,
      fc.constantFrom("plural", "select", "selectordinal", "pluriel"),
      fc.constantFrom("", "offset:1 "),
      fc.array(fc.tuple(caseKey, depth > 1 ? message(depth - 1) : literal), { minLength: 0, maxLength: 4 }),
      fc.boolean(),
    )
    .map(
      ([n, kind, offset, cases, other]) =>
        `{${n}, ${kind}, ${offset}${cases.map(([k, m]) => `${k} {${m}}`).join(" ")}${other ? " other {x}" : ""}}`,
    );
  const part = depth > 0 ? fc.oneof(literal, literal, simple, formatted, pound, choice) : literal;
  return fc.array(part, { maxLength: 5 }).map((parts) => parts.join(""));
});

/** A generated message with one character removed or inserted, the way typos break ICU. */
const mutated = fc
  .tuple(message(3), fc.nat(), fc.constantFrom("", "{", "}", "'", "#", ",", " "))
  .map(([text, at, insert]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    return insert === "" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
  });

describe("the common ICU reader agrees with FormatJS's parser", () => {
  test("on generated messages, valid and broken", () => {
    const seen = { tree: 0, invalid: 0, parser: 0 };
    fc.assert(
      fc.property(fc.oneof(message(3), mutated), (text) => {
        seen[agree(text)]++;
      }),
      { numRuns: 3000 },
    );
    // Each path is really exercised.
    expect(seen.tree).toBeGreaterThan(300);
    expect(seen.invalid).toBeGreaterThan(100);
    expect(seen.parser).toBeGreaterThan(100);
  });

  test("on the benchmark's realistic pairs", () => {
    const seen = { tree: 0, invalid: 0, parser: 0 };
    for (const pair of checkPairs(3000)) {
      seen[agree(pair.base as string)]++;
      seen[agree(pair.value)]++;
    }
    expect(seen.tree).toBeGreaterThan(3000);
  });

  test("on hand-picked edge cases", () => {
    const texts = [
      "{a\u200E}",
      "{ name }",
      "{n, plural, =0 {x} one {# {m, select, other {#}}} other {y}}",
      "{n, plural, one {'#'} other {#}}",
      "}top}",
      "#top#",
      "it''s {a}",
      "x'",
      "{a, number, percent }",
      "{a,number,  integer}",
      "{{a}}",
      "{a, number, }",
      "{n, plural, =+1 {x} other {y}}",
      "{n, select, __proto__ {x} other {y}}",
      "{n, select, constructor {x} other {y}}",
      "{n, plural, other {x}} {",
      "",
    ];
    for (const text of texts) agree(text);
  });
});

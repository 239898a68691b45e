import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import i18next from "i18next";
import { parseContent } from "../../core/flatten.ts";
import { hasUncarriableCharacter } from "../../core/text.ts";
import { unflatten } from "../../core/unflatten.ts";

/** What push makes of the nested file: the round trip must give the flat map back exactly. */
const reflatten = (nested: unknown) => Object.fromEntries(parseContent(JSON.stringify(nested)));

describe("unflatten", () => {
  test("each dot opens an object; values stay strings", () => {
    expect(
      unflatten({ "home.title": "Welcome", "home.body": "Hi", "nav.back": "Back", count: "1", flag: "true" }),
    ).toEqual({ count: "1", flag: "true", home: { body: "Hi", title: "Welcome" }, nav: { back: "Back" } });
    expect(unflatten({})).toEqual({});
    expect(unflatten(new Map([["a.b", "x"]]))).toEqual({ a: { b: "x" } });
  });

  test("leaf before parent: longer keys are kept beside the leaf under their dotted rest", () => {
    expect(unflatten({ "a.b": "x", "a.b.c": "y" })).toEqual({ a: { b: "x", "b.c": "y" } });
    expect(unflatten({ a: "x", "a.b": "y", "a.c.d": "z" })).toEqual({ a: "x", "a.b": "y", "a.c.d": "z" });
    expect(unflatten({ "a.b": "x", "a.b.c": "y", "a.b.c.d": "z", "a.e": "w" })).toEqual({
      a: { b: "x", "b.c": "y", "b.c.d": "z", e: "w" },
    });
    // Only a key that is itself a prefix of segments counts: `a.b` is no parent of `a.bc`.
    expect(unflatten({ "a.b": "x", "a.bc.d": "y" })).toEqual({ a: { b: "x", bc: { d: "y" } } });
  });

  test("arrays: members named exactly 0…n-1 become an array; anything else stays an object", () => {
    expect(unflatten({ "list.0": "a", "list.1": "b", "list.2": "c" })).toEqual({ list: ["a", "b", "c"] });
    expect(unflatten({ "items.0.name": "x", "items.1.name": "y" })).toEqual({
      items: [{ name: "x" }, { name: "y" }],
    });
    expect(unflatten({ "grid.0.0": "a", "grid.0.1": "b", "grid.1.0": "c" })).toEqual({
      grid: [["a", "b"], ["c"]],
    });
    // A language that lacks an item keeps the others under their indexes.
    expect(unflatten({ "list.0": "a", "list.2": "c" })).toEqual({ list: { "0": "a", "2": "c" } });
    expect(unflatten({ "list.1": "b" })).toEqual({ list: { "1": "b" } });
    expect(unflatten({ "list.00": "a" })).toEqual({ list: { "00": "a" } });
    expect(unflatten({ "list.0": "a", "list.x": "b" })).toEqual({ list: { "0": "a", x: "b" } });
    // The top level is always an object, as push requires.
    expect(Array.isArray(unflatten({ "0": "a" }))).toBe(false);
  });

  test("keys with an empty segment are kept whole at the top level", () => {
    expect(unflatten({ "a..b": "x", ".a": "y", "a.": "z", "a.c": "w" })).toEqual({
      ".a": "y",
      a: { c: "w" },
      "a.": "z",
      "a..b": "x",
    });
  });

  test("__proto__ and constructor are ordinary members; nothing is polluted", () => {
    const nested = unflatten({ "__proto__.polluted": "yes", "constructor.name": "c", toString: "t" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(nested))).toEqual(
      JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"name":"c"},"toString":"t"}'),
    );
    expect(reflatten(nested)).toEqual(
      Object.fromEntries([
        ["__proto__.polluted", "yes"],
        ["constructor.name", "c"],
        ["toString", "t"],
      ]),
    );
  });

  test("members in code-point order (integer-like names first, as JavaScript serializes them)", () => {
    const text = JSON.stringify(
      unflatten({ "b.z": "1", "b.é": "2", "b.Z": "3", "b.10": "4", "b.9": "5", a: "6" }),
    );
    expect(text).toBe('{"a":"6","b":{"9":"5","10":"4","Z":"3","z":"1","é":"2"}}');
  });

  test("pushing the nested file gives back exactly the flat keys and values (property)", () => {
    const segment = fc.constantFrom(
      "a",
      "b",
      "0",
      "1",
      "2",
      "10",
      "x y",
      "é",
      "😀",
      "__proto__",
      "constructor",
    );
    const key = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("."));
    const value = fc.string({ unit: "grapheme", maxLength: 8 }).filter((v) => !hasUncarriableCharacter(v));
    const flat = fc.dictionary(key, value, { maxKeys: 25 }).map((d) => new Map(Object.entries(d)));
    fc.assert(
      fc.property(flat, (map) => {
        expect(new Map(parseContent(JSON.stringify(unflatten(map))))).toEqual(map);
      }),
      { numRuns: 400 },
    );
  });

  test("i18next with its default key separator resolves every key of the nested file", async () => {
    const flat = {
      "home.title": "Welcome",
      "a.b": "leaf",
      "a.b.c": "below the leaf",
      "a.b.c.d": "further below",
      "list.0": "first",
      "list.1": "second",
      "sparse.0": "zero",
      "sparse.2": "two",
      count: "1",
    };
    const i18n = i18next.createInstance();
    // nsSeparator off: a ":" in a key would otherwise name a namespace (see the README).
    await i18n.init({ lng: "fr", nsSeparator: false, resources: { fr: { translation: unflatten(flat) } } });
    for (const [k, v] of Object.entries(flat)) expect(i18n.t(k)).toBe(v);
  });
});

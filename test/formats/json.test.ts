import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import i18next from "i18next";
import { jsonFormatter } from "../../core/formats/json.ts";
import { entriesArb, hardFixture } from "./support/data.ts";
import { type Entry, expectedPairs, exportInput } from "./support/input.ts";
import { readJson } from "./support/readers.ts";

/** i18next as CONTRACT §10 configures it, loaded with one export. */
async function i18nextWith(text: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: "fr",
    resources: { fr: { translation: JSON.parse(text) } },
    keySeparator: false,
    nsSeparator: false,
    // An empty string is a translation, not a missing one.
    returnEmptyString: true,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18n;
}

// i18next rewrites these on lookup by design ({{var}} interpolation, $t() nesting).
const TEMPLATED = /\{\{|\$t\(/;

describe("json", () => {
  test("JSON.parse gives back exactly the keys and values", () => {
    const check = (entries: Entry[]) => {
      const input = exportInput(entries);
      expect(readJson(jsonFormatter.render(input))).toEqual(expectedPairs(input));
    };
    check(hardFixture());
    fc.assert(fc.property(entriesArb(), check), { numRuns: 150 });
  });

  test("i18next (keySeparator:false, nsSeparator:false) resolves every key to its value", async () => {
    const docs = [hardFixture(), ...fc.sample(entriesArb(), { numRuns: 50, seed: 9 })];
    for (const entries of docs) {
      const input = exportInput(entries);
      const i18n = await i18nextWith(jsonFormatter.render(input));
      for (const [key, value] of expectedPairs(input)) {
        expect([key, i18n.exists(key)]).toEqual([key, true]);
        // Verbatim when interpolation is skipped; verbatim by default unless the value is a template.
        expect([key, i18n.t(key, { skipInterpolation: true })]).toEqual([key, value]);
        if (!TEMPLATED.test(value)) expect([key, i18n.t(key)]).toEqual([key, value]);
      }
    }
  });
});

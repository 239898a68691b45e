import type { TranslationStatus } from "../types.ts";
import { chunksOf, type ExportInput, type UnitInput, type UnitWriter } from "./formatter.ts";
import { escapeXmlAttr, escapeXmlText } from "./xml-escape.ts";

const STATE_20: Record<TranslationStatus, string> = {
  draft: "initial",
  pending: "translated",
  needs_review: "translated",
  approved: "final",
};

const ID_SAFE = /^[A-Za-z0-9._-]+$/;
const ID_UNSAFE_ALL = /[^A-Za-z0-9._-]/gu;

/**
 * The `<unit id>` of a key: an NMTOKEN that is unique because the mapping is injective.
 * `A–Z a–z 0–9 . _ -` stay as they are; every other code point (`:` included) becomes
 * `:<lower-case hex>:` (`a b` → `a:20:b`, `ü` → `:fc:`). `:` never appears otherwise, so the id
 * decodes back to the key and two keys never share an id, whatever else the export holds. Only
 * ASCII is kept so that readers using XML 1.0 4th-edition name rules (libxml2) accept it too.
 */
export function xliffUnitId(key: string): string {
  if (ID_SAFE.test(key)) return key;
  return key.replace(ID_UNSAFE_ALL, (ch) => `:${(ch.codePointAt(0) as number).toString(16)}:`);
}

/**
 * XLIFF 2.0, valid against xliff_core_2.0.xsd. The key is kept verbatim in `name`; state lives on
 * `<segment>`. A file needs at least one unit or group, so an export without rows holds an empty
 * `<group id="empty"/>`.
 */
export function xliff20Units({ project, language, sources }: UnitInput): UnitWriter {
  return {
    head:
      `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${escapeXmlAttr(project.baseLanguage)}" trgLang="${escapeXmlAttr(language)}">\n` +
      `  <file id="f1" original="${escapeXmlAttr(project.name)}">\n`,
    unit: (r) =>
      `    <unit id="${xliffUnitId(r.key)}" name="${escapeXmlAttr(r.key)}" xml:space="preserve">\n` +
      `      <segment state="${STATE_20[r.status]}">\n` +
      `        <source>${escapeXmlText(r.source ?? sources.get(r.key) ?? "")}</source>\n` +
      `        <target>${escapeXmlText(r.value)}</target>\n` +
      "      </segment>\n    </unit>\n",
    tail: (count) => `${count === 0 ? '    <group id="empty"/>\n' : ""}  </file>\n</xliff>\n`,
  };
}

export const xliff20Chunks = (input: ExportInput): Iterable<string> =>
  chunksOf(xliff20Units(input), input.rows);

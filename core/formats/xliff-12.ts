import type { TranslationStatus } from "../types.ts";
import { chunksOf, type ExportInput, type UnitInput, type UnitWriter } from "./formatter.ts";
import { escapeXmlAttr, escapeXmlText } from "./xml-escape.ts";

const STATE_12: Record<TranslationStatus, string> = {
  draft: "new",
  pending: "translated",
  needs_review: "needs-review-translation",
  approved: "final",
};

/**
 * XLIFF 1.2, valid against xliff-core-1.2-strict.xsd. `id` and `resname` are the key itself
 * (`id` is an xsd:string, unique per file as keys are); `xml:space="preserve"` keeps every space.
 */
export function xliff12Units({ project, language, sources }: UnitInput): UnitWriter {
  return {
    head:
      '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
      `  <file original="${escapeXmlAttr(project.name)}" datatype="plaintext" source-language="${escapeXmlAttr(project.baseLanguage)}" target-language="${escapeXmlAttr(language)}">\n    <body>\n`,
    unit(r) {
      const key = escapeXmlAttr(r.key);
      return (
        `      <trans-unit id="${key}" resname="${key}" xml:space="preserve">\n` +
        `        <source>${escapeXmlText(r.source ?? sources.get(r.key) ?? "")}</source>\n` +
        `        <target state="${STATE_12[r.status]}">${escapeXmlText(r.value)}</target>\n` +
        "      </trans-unit>\n"
      );
    },
    tail: () => "    </body>\n  </file>\n</xliff>\n",
  };
}

export const xliff12Chunks = (input: ExportInput): Iterable<string> =>
  chunksOf(xliff12Units(input), input.rows);

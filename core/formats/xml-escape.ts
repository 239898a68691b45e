/**
 * XML 1.0 escaping shared by the XLIFF and Android writers. Input is text push accepted: no C0
 * control other than TAB, LF and CR, no U+FFFE/U+FFFF, no lone surrogate.
 *
 * - `&`, `<`, `>` always become entities (`>` so that `]]>` can never appear).
 * - CR becomes `&#13;`: a parser turns a literal CR (and CRLF) into LF.
 * - DEL and U+0080–U+009F become `&#x7F;`…`&#x9F;`: legal in XML 1.0 either way, but as references
 *   they stay visible, survive editors, and keep the file valid XML 1.1.
 * - In attributes also `"`, TAB (`&#9;`) and LF (`&#10;`): attribute-value normalization would
 *   turn a literal TAB or LF into a space.
 */

const TEXT_SPECIAL = /[&<>\r\x7f-\x9f]/;
const TEXT_SPECIAL_ALL = /[&<>\r\x7f-\x9f]/g;
const ATTR_SPECIAL = /[&<>"\t\n\r\x7f-\x9f]/;
const ATTR_SPECIAL_ALL = /[&<>"\t\n\r\x7f-\x9f]/g;

/** The XML spelling of one character the patterns above match. */
export function xmlCharEntity(ch: string): string {
  switch (ch) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case '"':
      return "&quot;";
    case "\t":
      return "&#9;";
    case "\n":
      return "&#10;";
    case "\r":
      return "&#13;";
    default:
      return `&#x${ch.charCodeAt(0).toString(16).toUpperCase()};`;
  }
}

/** Character data for element content. */
export function escapeXmlText(s: string): string {
  return TEXT_SPECIAL.test(s) ? s.replace(TEXT_SPECIAL_ALL, xmlCharEntity) : s;
}

/** A value for a double-quoted attribute; every character survives attribute-value normalization. */
export function escapeXmlAttr(s: string): string {
  return ATTR_SPECIAL.test(s) ? s.replace(ATTR_SPECIAL_ALL, xmlCharEntity) : s;
}

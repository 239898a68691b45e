/**
 * HTML/XML tags and ICU rich-text tags (`<link>…</link>`), and react-i18next's numbered tags
 * (`<0>…</0>`, `<1/>`). Attributes are not compared: a translator may localise a link's address.
 * `a < b` is not a tag: a tag name starts with a letter or is a number, right after `<`. Nor is
 * `<host name>` or `Press <Enter>`: an opening tag counts only if its element is closed somewhere
 * in the base or the translation, or is an HTML void element (see isTag).
 */
const TAG = /<(\/?)([A-Za-z][\w.:-]*|\d+)(?:\s[^<>]*?)?(\/?)>/g;

/** HTML elements that never have a closing tag: `<br>` and `<br/>` are the same tag. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/**
 * Each tag as its key: `<b>` (opening), `</b>` (closing), `<x/>` (self-closing), `<br>` (void,
 * with or without the slash). Names keep their case: ICU rich-text tags are case-sensitive.
 */
export function scanTags(text: string): string[] {
  if (!text.includes("<")) return [];
  const out: string[] = [];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    const name = m[2] as string;
    if (m[1] === "/") out.push(`</${name}>`);
    else if (VOID.has(name.toLowerCase())) out.push(`<${name}>`);
    else out.push(m[3] === "/" ? `<${name}/>` : `<${name}>`);
  }
  return out;
}

/** Names that have a closing tag among `keys`. */
export function closedNames(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const k of keys) if (k.startsWith("</")) out.add(k.slice(2, -1));
  return out;
}

/**
 * Whether a tag key is markup rather than a metavariable such as `<file name>` or `<TAB>`: closing
 * and self-closing tags are; an opening tag is when its element is void or closed in either text.
 */
export function isTag(key: string, closed: ReadonlySet<string>): boolean {
  if (key.startsWith("</") || key.endsWith("/>")) return true;
  const name = key.slice(1, -1);
  return closed.has(name) || VOID.has(name.toLowerCase());
}

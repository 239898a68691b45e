/**
 * Test-side readers: each export read back by the library a consumer would use. They return pairs
 * in document order so that order, duplicates and exact strings are all compared.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";
import { parseDocument } from "yaml";
import { compareCodePoints } from "../../../core/code-point.ts";

export type Pairs = [string, string][];

/** A parsed object lists integer-like keys first, so pairs come back in code-point order of key. */
export function readJson(text: string): Pairs {
  const obj = JSON.parse(text) as Record<string, unknown>;
  const pairs = Object.entries(obj).map(([k, v]): [string, string] => {
    if (typeof v !== "string") throw new Error(`value of ${JSON.stringify(k)} is not a string`);
    return [k, v];
  });
  return pairs.sort((a, b) => compareCodePoints(a[0], b[0]));
}

export function readCsv(text: string, language: string): Pairs {
  const records = parseCsvText(text, { bom: true, relax_column_count: false }) as string[][];
  const [header, ...rows] = records;
  if (JSON.stringify(header) !== JSON.stringify(["key", language])) {
    throw new Error(`bad header ${JSON.stringify(header)}`);
  }
  return rows.map((r) => {
    if (r.length !== 2) throw new Error(`row of ${r.length} fields`);
    return [r[0] as string, r[1] as string];
  });
}

/** Reads with both YAML versions' schemas; every key and value must come back a string. */
export function readYaml(text: string, version: "1.1" | "1.2"): Pairs {
  // Duplicate keys would shrink the map, which the pair comparison catches (uniqueKeys is quadratic).
  const doc = parseDocument(text, { version, uniqueKeys: false, strict: true, prettyErrors: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  const map = doc.toJS({ mapAsMap: true }) as unknown;
  if (!(map instanceof Map)) throw new Error("not a mapping");
  return [...map.entries()].map(([k, v]) => {
    if (typeof k !== "string" || typeof v !== "string") {
      throw new Error(`non-string entry ${String(k)}: ${String(v)} (${typeof k}/${typeof v})`);
    }
    return [k, v];
  });
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  // Decodes numeric character references (`&#13;`, `&#x85;`) besides the five XML entities.
  htmlEntities: true,
  isArray: (name) => name === "trans-unit" || name === "unit" || name === "string",
});

type Node = Record<string, unknown>;

function text(node: unknown): string {
  if (node === undefined || node === "") return "";
  if (typeof node === "string") return node;
  const t = (node as Node)["#text"];
  const children = Object.keys(node as Node).filter((k) => k !== "#text" && !k.startsWith("@_"));
  if (children.length > 0) throw new Error(`unexpected child elements ${children.join(",")}`);
  return typeof t === "string" ? t : "";
}

function attr(node: unknown, name: string): string | undefined {
  const v = (node as Node)[`@_${name}`];
  return typeof v === "string" ? v : undefined;
}

export interface XliffUnit {
  id: string;
  key: string;
  source: string;
  target: string;
  state: string | undefined;
  space: string | undefined;
}

export interface XliffDoc {
  version: string;
  namespace: string;
  original: string;
  sourceLanguage: string;
  targetLanguage: string;
  units: XliffUnit[];
}

export function readXliff(text_: string): XliffDoc {
  const root = (xml.parse(text_) as Node).xliff as Node;
  const version = attr(root, "version") ?? "";
  const file = root.file as Node;
  if (version === "1.2") {
    const units = ((file.body as Node)["trans-unit"] ?? []) as Node[];
    return {
      version,
      namespace: attr(root, "xmlns") ?? "",
      original: attr(file, "original") ?? "",
      sourceLanguage: attr(file, "source-language") ?? "",
      targetLanguage: attr(file, "target-language") ?? "",
      units: units.map((u) => ({
        id: attr(u, "id") ?? "",
        key: attr(u, "resname") ?? "",
        source: text(u.source),
        target: text(u.target),
        state: attr(u.target, "state"),
        space: attr(u, "xml:space"),
      })),
    };
  }
  const units = (file.unit ?? []) as Node[];
  return {
    version,
    namespace: attr(root, "xmlns") ?? "",
    original: attr(file, "original") ?? "",
    sourceLanguage: attr(root, "srcLang") ?? "",
    targetLanguage: attr(root, "trgLang") ?? "",
    units: units.map((u) => {
      const segment = u.segment as Node;
      return {
        id: attr(u, "id") ?? "",
        key: attr(u, "name") ?? "",
        source: text(segment.source),
        target: text(segment.target),
        state: attr(segment, "state"),
        space: attr(u, "xml:space"),
      };
    }),
  };
}

export function readXliffPairs(text_: string): Pairs {
  return readXliff(text_).units.map((u) => [u.key, u.target]);
}

const ANDROID_ESCAPES: Record<string, string> = {
  t: "\t",
  n: "\n",
  "#": "#",
  "@": "@",
  "?": "?",
  '"': '"',
  "'": "'",
  "\\": "\\",
};

function isAsciiSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r";
}

/**
 * Android's reading of `<string>` text (after XML decoding), as aapt/aapt2 do it: backslash
 * escapes; `"` toggles a quoted run where whitespace is kept; outside quotes a run of ASCII
 * whitespace is one space and the ends are trimmed; an unescaped `'` outside quotes, or a leading
 * `@`/`?` (a reference), is an error. Stricter than aapt in one way: unknown escapes throw.
 */
export function decodeAndroidString(raw: string): string {
  const unquoted = raw.startsWith('"') ? raw.slice(1) : raw;
  if (unquoted.startsWith("@") || unquoted.startsWith("?")) throw new Error(`reference: ${raw}`);
  let out = "";
  let quoted = false;
  let started = false;
  let pendingSpace = false;
  const emit = (s: string) => {
    if (pendingSpace && started) out += " ";
    pendingSpace = false;
    started = true;
    out += s;
  };
  let i = 0;
  while (i < raw.length) {
    const c = raw[i] as string;
    if (c === "\\") {
      const n = raw[i + 1];
      if (n === undefined) throw new Error("dangling backslash");
      if (n === "u") {
        const hex = raw.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Error(`bad \\u escape in ${raw}`);
        emit(String.fromCharCode(Number.parseInt(hex, 16)));
        i += 6;
        continue;
      }
      const e = ANDROID_ESCAPES[n];
      if (e === undefined) throw new Error(`unknown escape \\${n}`);
      emit(e);
      i += 2;
      continue;
    }
    if (c === '"') {
      // An empty quoted run still marks content ("" is the empty string, not trimmed away).
      emit("");
      quoted = !quoted;
      i++;
      continue;
    }
    if (!quoted && c === "'") throw new Error(`unescaped apostrophe in ${raw}`);
    if (!quoted && isAsciiSpace(c)) {
      while (i < raw.length && isAsciiSpace(raw[i] as string)) i++;
      pendingSpace = true;
      continue;
    }
    emit(c);
    i++;
  }
  if (quoted) throw new Error(`unterminated quote in ${raw}`);
  return out;
}

export interface AndroidString {
  name: string;
  formatted: string | undefined;
  raw: string;
}

export function readAndroid(text_: string): AndroidString[] {
  const resources = (xml.parse(text_) as Node).resources;
  if (resources === undefined) throw new Error("no <resources>");
  const strings = (resources === "" ? [] : ((resources as Node).string ?? [])) as Node[];
  return strings.map((s) => ({ name: attr(s, "name") ?? "", formatted: attr(s, "formatted"), raw: text(s) }));
}

export function readAndroidPairs(text_: string): Pairs {
  return readAndroid(text_).map((s) => [s.name, decodeAndroidString(s.raw)]);
}

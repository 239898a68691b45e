import { invalid, PAYLOAD_TOO_LARGE, ParlanceError } from "./errors.ts";
import { jsonErrorAt } from "./json.ts";
import { codePointLength, uncarriableCharacter, utf8Length } from "./text.ts";

/** API.md limits, CONTRACT §6 sizes. */
export const MAX_CONTENT_BYTES = 12 * 1024 * 1024;
export const MAX_ROWS = 50_000;
export const MAX_DEPTH = 32;
export const MAX_KEY_CODE_POINTS = 1000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Parses a push's `content` and flattens it into key → value (CONTRACT §6): nested objects and
 * arrays become dot-separated keys, null becomes "null", numbers and booleans their JavaScript text.
 * Throws 413 past the size or row limits and 400 for anything no export could carry.
 */
export function parseContent(content: string): Map<string, string> {
  // Every UTF-16 unit is at least one UTF-8 byte, and at most three; ASCII is exactly one. Count
  // only when it matters: the regex answers "all ASCII?" far faster than the counting loop.
  if (content.length > MAX_CONTENT_BYTES) throw contentTooLarge(utf8Length(content));
  const mayExceed = content.length * 3 > MAX_CONTENT_BYTES && /[^\x00-\x7f]/.test(content);
  if (mayExceed) {
    const size = utf8Length(content);
    if (size > MAX_CONTENT_BYTES) throw contentTooLarge(size);
  }
  // A byte order mark (files saved by some editors) is not content: RFC 8259 §8.1 lets parsers ignore it.
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch (e) {
    const at = jsonErrorAt(text);
    const where = at ? `: ${at.reason} at line ${at.line}, column ${at.column}` : "";
    throw invalid(`content is not valid JSON${where}`, e instanceof Error ? e.message : String(e));
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw invalid("content must be a JSON object");
  }
  const rows = flatten(doc);
  if (rows.size > MAX_ROWS) throw tooManyRows(rows.size);
  const repeated = repeatedName(text);
  if (repeated !== null)
    throw invalid(`Key ${JSON.stringify(repeated)} appears more than once in the content`);
  return rows;
}

const figure = (n: number) => n.toLocaleString("en-US");

/** API.md fixes the 413's message; the figures are its details (development mode). */
const contentTooLarge = (bytes: number) =>
  new ParlanceError(
    "payload_too_large",
    PAYLOAD_TOO_LARGE,
    `content is ${figure(bytes)} bytes of UTF-8; the limit is ${figure(MAX_CONTENT_BYTES)} bytes`,
  );
const tooManyRows = (rows: number) =>
  new ParlanceError(
    "payload_too_large",
    PAYLOAD_TOO_LARGE,
    `content flattens to ${figure(rows)} rows; the limit is ${figure(MAX_ROWS)} rows`,
  );

interface Level {
  /** Member names seen so far; null for an array. */
  names: Set<string> | null;
  /** Flattened key of this container; null for the top-level object. */
  path: string | null;
  index: number;
  last: string;
}

const isJsonSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * JSON.parse keeps the last of two members of one object with the same name and drops the other
 * silently: that is two inputs for one key (CONTRACT §6). `text` is valid JSON. Returns the
 * flattened key of the first repeated name, or null.
 */
function repeatedName(text: string): string | null {
  const stack: Level[] = [];
  const childPath = (l: Level | undefined): string | null => {
    if (!l) return null;
    const segment = l.names ? l.last : String(l.index);
    return l.path === null ? segment : `${l.path}.${segment}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (!top?.names) continue;
      let j = i + 1;
      while (isJsonSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 0x3a) continue;
      const name = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      if (top.names.has(name)) return top.path === null ? name : `${top.path}.${name}`;
      top.names.add(name);
      top.last = name;
    } else if (c === 0x7b || c === 0x5b) {
      const path = childPath(stack[stack.length - 1]);
      stack.push({ names: c === 0x7b ? new Set() : null, path, index: 0, last: "" });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top && !top.names) top.index++;
    }
  }
  return null;
}

interface Frame {
  prefix: string;
  value: Json;
  depth: number;
}

function flatten(root: { [k: string]: Json }): Map<string, string> {
  const rows = new Map<string, string>();
  // An explicit stack: a hostile document nested thousands deep must not overflow the call stack.
  const stack: Frame[] = [{ prefix: "", value: root, depth: 1 }];
  while (stack.length > 0) {
    const { prefix, value, depth } = stack.pop() as Frame;
    const children = childrenOf(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const [name, child] = children[i] as [string, Json];
      // Only the root has no prefix: an empty key above must still show as an empty segment.
      const key = depth === 1 ? name : `${prefix}.${name}`;
      if (child !== null && typeof child === "object") {
        stack.push({ prefix: key, value: child, depth: depth + 1 });
        continue;
      }
      if (depth > MAX_DEPTH)
        throw invalid(`Key ${JSON.stringify(key)} is nested more than ${MAX_DEPTH} levels deep`);
      addRow(rows, key, leafText(key, child));
    }
  }
  return rows;
}

function childrenOf(value: Json): [string, Json][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  return Object.entries(value as { [k: string]: Json });
}

function leafText(key: string, leaf: null | boolean | number | string): string {
  if (leaf === null) return "null";
  if (typeof leaf === "number" && !Number.isFinite(leaf)) {
    throw invalid(`Value of key ${JSON.stringify(key)} is a number out of range`);
  }
  return String(leaf);
}

function addRow(rows: Map<string, string>, key: string, value: string): void {
  requireRow(key, value);
  if (rows.has(key)) throw invalid(`Key ${JSON.stringify(key)} appears more than once after flattening`);
  rows.set(key, value);
}

/** The push rules for one key and its value, which every other writer of records follows too. */
export function requireRow(key: string, value: string): void {
  if (key === "" || key.startsWith(".") || key.endsWith(".") || key.includes("..")) {
    throw invalid(`Key ${JSON.stringify(key)} has an empty segment`);
  }
  if (key.length > MAX_KEY_CODE_POINTS && codePointLength(key) > MAX_KEY_CODE_POINTS) {
    throw invalid(
      `Key ${JSON.stringify(key.slice(0, 40))}… is longer than ${MAX_KEY_CODE_POINTS} characters`,
    );
  }
  const inKey = uncarriableCharacter(key);
  // The key is shown escaped (JSON), so the refused character is visible as \uXXXX too.
  if (inKey) throw invalid(`Key ${JSON.stringify(key)} contains ${inKey}, which no export can carry`);
  const inValue = uncarriableCharacter(value);
  if (inValue)
    throw invalid(`Value of key ${JSON.stringify(key)} contains ${inValue}, which no export can carry`);
}

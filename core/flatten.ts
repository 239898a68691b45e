import { invalid, payloadTooLarge } from "./errors.ts";
import { codePointLength, hasUncarriableCharacter, utf8Length } from "./text.ts";

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
  // Every UTF-16 unit is at least one UTF-8 byte, and at most three: count only when it matters.
  if (content.length > MAX_CONTENT_BYTES) throw payloadTooLarge();
  if (content.length * 3 > MAX_CONTENT_BYTES && utf8Length(content) > MAX_CONTENT_BYTES)
    throw payloadTooLarge();
  let doc: Json;
  try {
    doc = JSON.parse(content) as Json;
  } catch (e) {
    throw invalid("content is not valid JSON", e instanceof Error ? e.message : String(e));
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw invalid("content must be a JSON object");
  }
  return flatten(doc);
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
  if (key === "" || key.startsWith(".") || key.endsWith(".") || key.includes("..")) {
    throw invalid(`Key ${JSON.stringify(key)} has an empty segment`);
  }
  if (key.length > MAX_KEY_CODE_POINTS && codePointLength(key) > MAX_KEY_CODE_POINTS) {
    throw invalid(
      `Key ${JSON.stringify(key.slice(0, 40))}… is longer than ${MAX_KEY_CODE_POINTS} characters`,
    );
  }
  if (hasUncarriableCharacter(key))
    throw invalid(`Key ${JSON.stringify(key)} contains a character no export can carry`);
  if (hasUncarriableCharacter(value)) {
    throw invalid(`Value of key ${JSON.stringify(key)} contains a character no export can carry`);
  }
  if (rows.has(key)) throw invalid(`Key ${JSON.stringify(key)} appears more than once after flattening`);
  rows.set(key, value);
  if (rows.size > MAX_ROWS) throw payloadTooLarge();
}

import { invalid, PAYLOAD_TOO_LARGE, ParlanceError } from "./errors.ts";
import { codePointLength, uncarriableCharacter } from "./text.ts";

/*
 * What a push's content may hold (CONTRACT §6): its limits, the errors past them, and the rules for
 * a row, which every other writer of records follows too. The reader is core/content-reader.ts.
 */

/** API.md limits, CONTRACT §6 sizes. */
export const MAX_CONTENT_BYTES = 12 * 1024 * 1024;
export const MAX_ROWS = 50_000;
export const MAX_DEPTH = 32;
export const MAX_KEY_CODE_POINTS = 1000;

const figure = (n: number) => n.toLocaleString("en-US");

/** API.md fixes the 413's message; the figures are its details (development mode). */
export const contentTooLarge = (bytes: number) =>
  new ParlanceError(
    "payload_too_large",
    PAYLOAD_TOO_LARGE,
    `content is ${figure(bytes)} bytes of UTF-8; the limit is ${figure(MAX_CONTENT_BYTES)} bytes`,
  );

export const tooManyRows = (rows: number) =>
  new ParlanceError(
    "payload_too_large",
    PAYLOAD_TOO_LARGE,
    `content flattens to ${figure(rows)} rows; the limit is ${figure(MAX_ROWS)} rows`,
  );

/** The push rules for a key (CONTRACT §6), which every other writer of records follows too. */
export function requireKey(key: string): void {
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
}

export function requireValue(key: string, value: string): void {
  const inValue = uncarriableCharacter(value);
  if (inValue)
    throw invalid(`Value of key ${JSON.stringify(key)} contains ${inValue}, which no export can carry`);
}

/** The push rules for one key and its value, which every other writer of records follows too. */
export function requireRow(key: string, value: string): void {
  requireKey(key);
  requireValue(key, value);
}

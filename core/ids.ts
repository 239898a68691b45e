/** Identifiers and secrets, from the web-standard `crypto` global every runtime provides. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const newId = (): string => crypto.randomUUID();
export const isUuid = (s: string): boolean => UUID.test(s);

function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  return bytes;
}

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

export const API_KEY_PATTERN = /^pl_[0-9a-f]{64}$/;
export const isApiKeyFormat = (s: string): boolean => API_KEY_PATTERN.test(s);

/** `pl_` + 64 lowercase hex: 256 bits of randomness. */
export const generateApiKey = (): string => `pl_${toHex(randomBytes(32))}`;

/** What listings show of a key: `pl_` and the first 6 hex characters. */
export const keyPrefix = (key: string): string => key.slice(0, 9);

/** Opaque access token, deliberately not of the API key format. */
export const generateAccessToken = (): string => `plat_${toHex(randomBytes(32))}`;

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

const RECORD_PREFIX = toHex(randomBytes(8));
let recordCounter = 0;
/** The process's part of every record id: `xxxxxxxx-xxxx-xxxx-`. */
const RECORD_HEAD = `${RECORD_PREFIX.slice(0, 8)}-${RECORD_PREFIX.slice(8, 12)}-${RECORD_PREFIX.slice(12, 16)}-`;

/**
 * An id for a new record: UUID-shaped and unique across processes (64 random bits per process),
 * but increasing within one, so a push of 50,000 new records appends to the id-keyed indexes
 * (the records' own, their history's) instead of scattering writes over them.
 */
export const newRecordId = (): string => recordId(RECORD_HEAD, ++recordCounter);

/**
 * The number of a new record's id, taken now; `recordIdOf` makes the id from it whenever it is
 * needed, the same each time. A plan of 50,000 new rows keeps numbers instead of id strings
 * from planning to its commit, about 4.5 MiB less of a 12 MB push's job (docs/benchmarks.md,
 * "Push memory, eleventh pass").
 */
export const newRecordNumber = (): number => ++recordCounter;

/** The id `newRecordId` would have given for `n` (a number from `newRecordNumber`). */
export const recordIdOf = (n: number): string => recordId(RECORD_HEAD, n);

/**
 * `head` (`xxxxxxxx-xxxx-xxxx-`) and `n` as 16 hex digits, `cccc-cccccccccccc`. Built as one flat
 * string: a template literal of slices is a rope of nine pieces until something flattens it (the
 * commit binding it), about 190 bytes a id alive and as much garbage again, where a 50,000-row
 * plan holds its ids for the whole job (docs/benchmarks.md, "Push memory, sixth pass").
 */
export function recordId(head: string, n: number): string {
  const hex = n.toString(16);
  // Below 16^12 the first four digits are zeros: the head, its zeros and the digits, joined in an
  // array kept for it (not a fresh one per id: a plan makes 50,000 of them in one go).
  if (hex.length > 12) {
    const c = hex.padStart(16, "0");
    return [head, c.slice(0, 4), "-", c.slice(4, 16)].join("");
  }
  PARTS[0] = head;
  PARTS[1] = ZEROS[hex.length] as string;
  PARTS[2] = hex;
  return PARTS.join("");
}

/** `0000-` and the zeros that pad `i` hex digits to 12, for each i up to 12. */
const ZEROS = Array.from({ length: 13 }, (_, i) => `0000-${"0".repeat(12 - i)}`);
const PARTS = ["", "", ""];

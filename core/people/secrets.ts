/** One-time and session tokens: random, and stored only as their SHA-256. */

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** 256 random bits as 64 lowercase hex characters. */
export function newSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** Milliseconds as an ISO date after `from`. */
export const after = (from: Date, ms: number): string => new Date(from.getTime() + ms).toISOString();

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Which Postgres (Postgres.js) errors mean "the database cannot be reached right now". */
import { translateUnavailable } from "../unavailable.ts";
import { behindGate, type OutageGate } from "./outage-gate.ts";

/** Socket errors of the runtime, and the client's own for a connection it lost or could not open. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * SQLSTATEs of a server that is going away or not ready: class 08 (connection exception),
 * admin/crash shutdown, "the database system is starting up", too many connections.
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

export function isUnavailable(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== "string") return namesConnectionFailure(error);
  return CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/**
 * A failed connect can also reach a caller as a bare message ("Error: connect ECONNREFUSED …",
 * without a code), as the client's reconnects hand it on while the database is down.
 */
const namesConnectionFailure = (error: unknown): boolean => {
  if (error === null || error === undefined) return false;
  const text = String(error);
  for (const code of CONNECTION_CODES) if (text.includes(code)) return true;
  return false;
};

/**
 * The same object with every method's rejections that mean an outage made "unavailable"; with a
 * gate, also refused at once while the database is known unreachable (outage-gate.ts).
 */
export const withUnavailable = <T extends object>(target: T, gate?: OutageGate): T =>
  translateUnavailable(gate ? behindGate(target, gate) : target, isUnavailable);

/** Which Postgres (Postgres.js) errors mean "the database cannot be reached right now". */
import { translateUnavailable } from "../unavailable.ts";

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
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/** The same object with every method's rejections that mean an outage made "unavailable". */
export const withUnavailable = <T extends object>(target: T): T =>
  translateUnavailable(target, isUnavailable);

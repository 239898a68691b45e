/**
 * Which SQLite errors mean "the store cannot answer right now": the database stayed locked by
 * another connection (an operator command, a backup) past busy_timeout. bun:sqlite names the code
 * (`SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`, `SQLITE_LOCKED`); node:sqlite gives the number (`errcode`,
 * whose low byte is 5 or 6).
 */
import { translateUnavailable } from "../unavailable.ts";

export function isUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof code === "string" && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
  return typeof errcode === "number" && ((errcode & 0xff) === 5 || (errcode & 0xff) === 6);
}

/** The same object with every method's locked-database failures made "unavailable". */
export const withUnavailable = <T extends object>(target: T): T =>
  translateUnavailable(target, isUnavailable);

/**
 * A synchronous read for a port's `…Now` method: its answer, or `undefined` when it failed (a
 * locked file), so the caller asks the asynchronous method, whose wrappers wait for the import's
 * write gate or answer "unavailable". `…Now` methods never throw (core/ports.ts). `read(arg)` rather
 * than a closure: the small GET reads twice a request (key, project), each without a closure.
 */
export function readNow<A, T>(read: (arg: A) => T, arg: A): T | undefined {
  try {
    return read(arg);
  } catch {
    return undefined;
  }
}

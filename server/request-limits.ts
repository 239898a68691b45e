import { ParlanceError } from "../core/errors.ts";
import { targetStart } from "./request-target.ts";

/** Longest request target (path and query) answered; longer is 414. */
export const MAX_TARGET_CHARS = 8 * 1024;
/**
 * Largest total of header names and values answered; larger is 431 with the Error object. Bun's
 * own parser refuses past 16 KiB before Parlance sees the request (a bare 431, docs/security.md).
 */
export const MAX_HEADER_BYTES = 12 * 1024;

const figure = (n: number) => n.toLocaleString("en-US");

/**
 * The length of the request's target (path and query) as its URL gives it, dot segments resolved
 * (Bun resolves them where there is a Host, a stand-in where there is none), without copying it.
 */
function targetLength(url: string): number {
  const start = targetStart(url);
  return start < 0 ? 1 : url.length - start;
}

/** The running total of `countHeader`: one function for every request, not a closure each. */
let headerBytes = 0;
const countHeader = (value: string, name: string) => {
  headerBytes += name.length + value.length + 4;
};

/**
 * 414 or 431 when the request line or headers pass Parlance's caps; null otherwise. `url` is
 * `request.url` when the caller has read it already (each read makes a new string).
 */
export function requestLimitError(request: Request, url = request.url): ParlanceError | null {
  const target = targetLength(url);
  if (target > MAX_TARGET_CHARS) {
    return new ParlanceError(
      "uri_too_long",
      `The request URI is ${figure(target)} characters; the limit is ${figure(MAX_TARGET_CHARS)}`,
    );
  }
  headerBytes = 0;
  // forEach rather than for…of: no [name, value] array per header on every request.
  request.headers.forEach(countHeader);
  const size = headerBytes;
  if (size > MAX_HEADER_BYTES) {
    return new ParlanceError(
      "headers_too_large",
      `The request headers are ${figure(size)} bytes; the limit is ${figure(MAX_HEADER_BYTES)}`,
    );
  }
  return null;
}

import { invalid } from "../core/errors.ts";

const repeated = (name: string) =>
  invalid(
    `Query parameter ${JSON.stringify(name.slice(0, 40))} appears more than once; give each parameter once`,
  );

/**
 * Refuses a query string that names one parameter twice (400 naming it). The router keeps only the
 * last of them, while a proxy, a cache or a log reader may act on the first: `limit=5&limit=1` must
 * not mean one thing to Parlance and another to what stands in front of it. Names are compared
 * decoded, so `%6Cimit` repeats `limit`.
 */
export function refuseRepeatedQuery(url: string): void {
  const start = url.indexOf("?");
  if (start < 0) return;
  const hash = url.indexOf("#", start);
  const end = hash < 0 ? url.length : hash;
  // One parameter cannot repeat: most requests stop here, before any parsing (issue 13, small GET).
  const amp = url.indexOf("&", start);
  if (amp < 0 || amp >= end) return;
  const query = url.slice(start + 1, end);
  // Names without `%` or `+` read the same decoded, so they compare as sent.
  if (query.includes("%") || query.includes("+")) {
    refuseRepeatedDecoded(url.slice(start, end));
    return;
  }
  const seen = new Set<string>();
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (seen.has(name)) throw repeated(name);
    seen.add(name);
  }
}

/** `search` with its leading `?`, which URLSearchParams drops (only the first). */
function refuseRepeatedDecoded(search: string): void {
  const seen = new Set<string>();
  for (const name of new URLSearchParams(search).keys()) {
    if (seen.has(name)) throw repeated(name);
    seen.add(name);
  }
}

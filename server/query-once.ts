import { invalid } from "../core/errors.ts";

/**
 * Refuses a query string that names one parameter twice (400 naming it). The router keeps only the
 * last of them, while a proxy, a cache or a log reader may act on the first: `limit=5&limit=1` must
 * not mean one thing to Parlance and another to what stands in front of it. Names are compared
 * decoded, so `%6Cimit` repeats `limit`.
 */
export function refuseRepeatedQuery(url: string): void {
  const start = url.indexOf("?");
  if (start < 0) return;
  const end = url.indexOf("#", start);
  const params = new URLSearchParams(end < 0 ? url.slice(start) : url.slice(start, end));
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) {
      throw invalid(
        `Query parameter ${JSON.stringify(name.slice(0, 40))} appears more than once; give each parameter once`,
      );
    }
    seen.add(name);
  }
}

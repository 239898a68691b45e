import { invalid } from "../core/errors.ts";

/** The range of one integer query parameter. */
export interface IntegerRange {
  min: number;
  max: number;
}

/** Offsets beyond this reach no listing and, past 2^31, no store's integer either. */
export const MAX_OFFSET = 1_000_000_000;

/**
 * The one reader of integer query parameters: decimal digits only (no sign, exponent, fraction,
 * hex, spaces or blank), within `range`; otherwise 400 naming the parameter. Absent stays absent.
 */
export function queryInteger(name: string, raw: unknown, range: IntegerRange): number | undefined {
  if (raw === undefined) return undefined;
  const must = `must be a whole number from ${range.min} to ${range.max}, in decimal digits`;
  if (typeof raw !== "string") throw invalid(`Invalid query parameter ${name}: give it once; it ${must}`);
  if (!/^\d+$/.test(raw)) {
    throw invalid(
      `Invalid query parameter ${name}: ${JSON.stringify(raw.slice(0, 40))} is not allowed; it ${must}`,
    );
  }
  const digits = raw.replace(/^0+(?=\d)/, "");
  const n = digits.length > 15 ? Number.POSITIVE_INFINITY : Number(digits);
  if (n < range.min || n > range.max)
    throw invalid(`Invalid query parameter ${name}: ${digits} is out of range; it ${must}`);
  return n;
}

/**
 * Reads the named integer parameters of `query` in place (a route's transform, before validation).
 * `asText`: checks them but leaves them text, for routes whose schema and use case take a string.
 */
export function readQueryIntegers(
  query: Record<string, unknown>,
  ranges: Record<string, IntegerRange>,
  asText = false,
): void {
  for (const [name, range] of Object.entries(ranges)) {
    const value = queryInteger(name, query[name], range);
    if (value !== undefined && !asText) query[name] = value;
  }
}

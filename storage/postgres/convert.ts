/**
 * Conversions between what Postgres.js hands back and what the ports speak. They accept both the
 * driver's default parsed forms and raw text, so a caller's custom `types` option cannot change
 * the shape of what the store returns.
 */
import postgres from "postgres";

/** ISO-8601 with milliseconds and `Z`, exactly as `Date#toISOString` writes it. */
export function iso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}

/** bigint and count(*) arrive as text by default: numbers here stay far below 2^53. */
export function num(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

/** Rows come back untyped; each store maps its columns through this record shape. */
export type DbRow = Record<string, unknown>;

export const str = (value: unknown): string => String(value);

export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** text[] columns: Postgres.js parses them into arrays once it has fetched the array types. */
export function strings(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  throw new Error("expected a text[] column; create the client with fetch_types enabled (the default)");
}

/** SQLSTATE 23505, optionally of one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return (
    error instanceof postgres.PostgresError &&
    error.code === "23505" &&
    (constraint === undefined || error.constraint_name === constraint)
  );
}

import { invalid } from "../core/errors.ts";

/** What a route sees of its input once parsed: path parameters, query values and body. */
export interface ParsedInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

const NUL = "\u0000";

/**
 * Refuses U+0000 in a path parameter, a query value or anywhere in the JSON body (strings and
 * member names at any depth) with a 400 naming where. No store can carry it (Postgres text refuses
 * it, so a search, a lookup or a write holding one answered 500 there), and no id, name, email, key
 * or search text of Parlance holds one.
 */
export function refuseNul(input: ParsedInput): void {
  const found = (where: string) =>
    invalid(`${where} contains U+0000 (a control character), which no store can carry`);
  for (const [name, value] of Object.entries((input.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === "string" && value.includes(NUL)) throw found(`Path parameter ${name}`);
  }
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (name.includes(NUL) || (typeof value === "string" && value.includes(NUL)))
      throw found(`Query parameter ${JSON.stringify(name)}`);
  }
  // Iterative: the JSON reader bounds the depth, but a walk need not rely on it.
  const pending: [unknown, string][] = [[input.body, "body"]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, where] = next;
    if (typeof value === "string") {
      if (value.includes(NUL)) throw found(`Body field ${where}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        pending.push([item, `${where}[${i}]`]);
      });
    } else if (value !== null && typeof value === "object") {
      for (const [name, item] of Object.entries(value)) {
        if (name.includes(NUL)) throw found(`A member name of ${where}`);
        pending.push([item, where === "body" ? name : `${where}.${name}`]);
      }
    }
  }
}

/**
 * The assertions the contract suites use, with no test runner behind them: the suites are published
 * and must run under `bun test`, `node:test`, `Deno.test` and vitest alike, each of which has its own
 * `expect` or none. A failed assertion throws an Error whose message shows both values.
 */

/** A value that matches any instance of a type (`expect.any(String)`), as in Jest's matchers. */
class AnyOf {
  constructor(readonly type: abstract new (...args: never[]) => unknown) {}
  matches(value: unknown): boolean {
    if (this.type === (String as unknown)) return typeof value === "string";
    if (this.type === (Number as unknown)) return typeof value === "number";
    if (this.type === (Boolean as unknown)) return typeof value === "boolean";
    return value instanceof this.type;
  }
  toJSON(): string {
    return `<any ${this.type.name}>`;
  }
}

function show(value: unknown): string {
  if (value instanceof Map) return `Map ${show([...value])}`;
  if (value instanceof Set) return `Set ${show([...value])}`;
  if (value === undefined) return "undefined";
  try {
    const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  } catch {
    return String(value);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set);

/** Deep equality; an object property whose value is undefined counts as absent (as in Jest). */
export function deepEqual(actual: unknown, expected: unknown): boolean {
  if (expected instanceof AnyOf) return expected.matches(actual);
  if (Object.is(actual, expected)) return true;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => deepEqual(actual[i], e))
    );
  }
  if (expected instanceof Date) return actual instanceof Date && actual.getTime() === expected.getTime();
  if (expected instanceof Map) {
    if (!(actual instanceof Map) || actual.size !== expected.size) return false;
    for (const [k, v] of expected) if (!actual.has(k) || !deepEqual(actual.get(k), v)) return false;
    return true;
  }
  if (expected instanceof Set) {
    if (!(actual instanceof Set) || actual.size !== expected.size) return false;
    for (const v of expected) if (!actual.has(v)) return false;
    return true;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) if (!deepEqual(actual[k], expected[k])) return false;
    return true;
  }
  return false;
}

/** Whether `actual` holds at least what `expected` names, recursively in objects. */
function matchesSubset(actual: unknown, expected: unknown): boolean {
  if (isPlainObject(expected) && !(expected instanceof AnyOf)) {
    if (!isPlainObject(actual)) return false;
    return Object.keys(expected).every((k) => k in actual && matchesSubset(actual[k], expected[k]));
  }
  return deepEqual(actual, expected);
}

function check(pass: boolean, message: () => string): void {
  if (!pass) throw new Error(message());
}

export interface Assertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toBeNull(): void;
  toMatchObject(expected: Record<string, unknown>): void;
  toStartWith(prefix: string): void;
  toBeGreaterThan(n: number): void;
  toContain(item: unknown): void;
}

export interface PromiseAssertion {
  /** The promise rejects with an Error whose message contains `text` (any Error when omitted). */
  toThrow(text?: string): Promise<void>;
}

function assertion(actual: unknown): Assertion {
  return {
    toBe: (expected) =>
      check(Object.is(actual, expected), () => `Expected ${show(actual)} to be ${show(expected)}`),
    toEqual: (expected) =>
      check(
        deepEqual(actual, expected),
        () => `Expected values to be equal\n  expected: ${show(expected)}\n  received: ${show(actual)}`,
      ),
    toBeNull: () => check(actual === null, () => `Expected null, received ${show(actual)}`),
    toMatchObject: (expected) =>
      check(
        matchesSubset(actual, expected),
        () => `Expected an object containing ${show(expected)}\n  received: ${show(actual)}`,
      ),
    toStartWith: (prefix) =>
      check(
        typeof actual === "string" && actual.startsWith(prefix),
        () => `Expected ${show(actual)} to start with ${show(prefix)}`,
      ),
    toBeGreaterThan: (n) =>
      check(
        typeof actual === "number" && actual > n,
        () => `Expected ${show(actual)} to be greater than ${n}`,
      ),
    toContain: (item) =>
      check(
        (Array.isArray(actual) && actual.some((a) => deepEqual(a, item))) ||
          (typeof actual === "string" && typeof item === "string" && actual.includes(item)),
        () => `Expected ${show(actual)} to contain ${show(item)}`,
      ),
  };
}

/** `expect(value).toEqual(…)`, `await expect(promise).rejects.toThrow(…)`, `expect.any(String)`. */
export const expect = Object.assign(
  (actual: unknown): Assertion & { rejects: PromiseAssertion } => ({
    ...assertion(actual),
    rejects: {
      async toThrow(text) {
        let error: unknown = null;
        let threw = false;
        try {
          await actual;
        } catch (e) {
          threw = true;
          error = e;
        }
        check(threw, () => "Expected the promise to reject, but it resolved");
        const message = error instanceof Error ? error.message : String(error);
        check(
          text === undefined || message.includes(text),
          () => `Expected a rejection containing ${show(text)}, got ${show(message)}`,
        );
      },
    },
  }),
  {
    // biome-ignore lint/suspicious/noExplicitAny: any constructor, as Jest's expect.any takes
    any: (type: abstract new (...args: any[]) => unknown): any => new AnyOf(type),
  },
);

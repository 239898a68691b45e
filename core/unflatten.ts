import { compareCodePoints } from "./code-point.ts";

/** A nested translation file: objects and arrays of strings. */
export type Nested = string | Nested[] | NestedObject;
export interface NestedObject {
  [name: string]: Nested;
}

/**
 * The inverse of push's flattening, for clients that want nested JSON (`parlance pull --nested`,
 * the workspace's download): each `.` of a key opens an object. Pure and total; the rules below are
 * chosen so that pushing the result flattens back to exactly the same keys and values.
 *
 * - **Leaf before parent.** When a key is also the beginning of longer keys (`a.b` and `a.b.c`),
 *   `a.b` stays a string and the longer keys are kept beside it, in the innermost object they share,
 *   under the rest of their name as one dotted member: `{"a": {"b": "x", "b.c": "y"}}`. Nothing is
 *   lost or overwritten, flattening gives `a.b` and `a.b.c` back, and i18next (whose lookup tries
 *   dotted member names) resolves both.
 * - **Arrays.** An object whose member names are exactly `0` … `n-1` (canonical integers, none
 *   missing) becomes an array, so a pushed array comes back as an array. Otherwise index-like names
 *   stay object members (`{"0": "a", "2": "c"}` when `1` is missing from a language).
 * - **Empty segments.** A key with an empty segment (`a..b`, `.a`, `a.`: push never produces one)
 *   is kept whole as a top-level member.
 * - **Values** stay strings (`"1"`, `"true"`, `"null"`): Parlance stores text.
 * - **Order.** Members are in code-point order of their names, except that JavaScript puts
 *   integer-like names (`0`, `10`) first, in numeric order, when the object is serialized.
 *
 * Names such as `__proto__` or `constructor` are ordinary own members.
 */
export function unflatten(
  flat: Iterable<readonly [string, string]> | Readonly<Record<string, string>>,
): NestedObject {
  const entries = new Map<string, string>(
    Symbol.iterator in flat ? (flat as Iterable<readonly [string, string]>) : Object.entries(flat),
  );
  const root: Tree = new Map();
  for (const [key, value] of entries) {
    const { path, member } = placement(key, entries);
    let node = root;
    for (const segment of path) {
      let child = node.get(segment);
      if (!(child instanceof Map)) {
        child = new Map();
        node.set(segment, child);
      }
      node = child;
    }
    node.set(member, value);
  }
  return toObject(root);
}

/** Members by name: a string is a leaf, a Map an object or array still to be built. */
type Tree = Map<string, string | Tree>;

/** The objects a key lies in, and its member name in the innermost one. */
function placement(key: string, keys: ReadonlyMap<string, string>): { path: string[]; member: string } {
  const segments = key.split(".");
  if (segments.includes("")) return { path: [], member: key };
  // The shortest proper prefix that is itself a key: the leaf beside which the rest is kept.
  let prefix = "";
  for (let i = 0; i < segments.length - 1; i++) {
    prefix = i === 0 ? (segments[0] as string) : `${prefix}.${segments[i]}`;
    if (keys.has(prefix)) return { path: segments.slice(0, i), member: segments.slice(i).join(".") };
  }
  return { path: segments.slice(0, -1), member: segments[segments.length - 1] as string };
}

const INDEX = /^(0|[1-9][0-9]*)$/;

function isArrayLike(names: string[]): boolean {
  return names.length > 0 && names.every((n) => INDEX.test(n) && Number(n) < names.length);
}

function build(node: string | Tree): Nested {
  if (typeof node === "string") return node;
  const names = [...node.keys()];
  if (isArrayLike(names)) {
    return Array.from({ length: names.length }, (_, i) => build(node.get(String(i)) as string | Tree));
  }
  return toObject(node);
}

function toObject(node: Tree): NestedObject {
  const object: NestedObject = {};
  for (const name of [...node.keys()].sort(compareCodePoints)) {
    // defineProperty, not assignment: `__proto__` must become a member, not the prototype.
    Object.defineProperty(object, name, {
      value: build(node.get(name) as string | Tree),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/**
 * The rows a push hands its job (core/flatten.ts `ContentRows`: two arrays, keys checked for
 * repeats only once a name with a dot or a repeated name was read) give the same rows, the same
 * plan and the same error as the map `parseContent` fills, whatever the order of the inputs.
 */
import { expect, test } from "bun:test";
import { parseContent, parseContentInSlices } from "../../core/flatten.ts";
import { planImport } from "../../core/import-plan.ts";
import type { ExistingRow } from "../../core/types.ts";

const outcome = async (read: () => unknown) => {
  try {
    return { rows: await read() };
  } catch (e) {
    return { error: String(e) };
  }
};

const entries = (rows: { forEach(each: (value: string, key: string) => void): void }) => {
  const out: [string, string][] = [];
  rows.forEach((value, key) => {
    out.push([key, value]);
  });
  return out;
};

const CONTENTS = [
  '{"a":"x","b":{"c":"y","d":["z",1,true,null]}}',
  // Two inputs for one key, the dotted name first or last, near or far apart.
  '{"a.b":"x","a":{"b":"y"}}',
  '{"a":{"b":"y"},"a.b":"x"}',
  '{"a":{"b":"y"},"q":{"r":"s"},"z":{"a.b":"t"},"a.b":"x"}',
  '{"list":{"0":"x"},"list.0":"y"}',
  '{"list":["x"],"list.0":"y"}',
  '{"list.0":"y","list":["x"]}',
  // A name repeated in one object: a leaf, or a container whose keys come again.
  '{"a":"x","a":"y"}',
  '{"a":{"x":"1"},"a":{"x":"2"}}',
  '{"a":{"x":"1"},"a":{"y":"2"}}',
  '{"a":{"x":"1"},"a":"2"}',
  // Dots that repeat nothing.
  '{"a.b":"x","a":{"c":"y"},"a.b.c":"z"}',
  // A repeat and a later broken row: the repeat is told, as the map tells it.
  '{"a.b":"x","a":{"b":"y"},"c":{"":"z"}}',
  '{"c":{"":"z"},"a.b":"x","a":{"b":"y"}}',
];

test("ContentRows reads every content as the map does: rows in order, or the same error", async () => {
  for (const text of CONTENTS) {
    const bytes = new TextEncoder().encode(text);
    const map = await outcome(() => entries(parseContent(bytes)));
    const rows = await outcome(async () => entries(await parseContentInSlices(bytes)));
    expect({ text, ...rows }).toEqual({ text, ...map });
  }
});

test("a plan of ContentRows is the plan of the map, replace mode's deletions included", async () => {
  const text = '{"a":"x","b.c":"y","d":{"e":"z"},"f":"same"}';
  const bytes = new TextEncoder().encode(text);
  const existing = new Map<string, ExistingRow>([
    ["a", { id: "id-a", value: "old", status: "approved" }],
    ["f", { id: "id-f", value: "same", status: "approved" }],
    ["gone", { id: "id-gone", value: "v", status: "draft" }],
  ]);
  const strip = (p: ReturnType<typeof planImport>) => ({
    ...p,
    writes: p.writes.map((w) => ({
      key: w.key,
      value: w.value,
      status: w.status,
      kept: w.id.startsWith("id-"),
    })),
  });
  const fromMap = planImport(parseContent(bytes), existing, "replace", "approved");
  const fromRows = planImport(await parseContentInSlices(bytes), existing, "replace", "approved");
  expect(strip(fromRows)).toEqual(strip(fromMap));
  expect(fromRows.deleteIds).toEqual(["id-gone"]);
});

test("a new row's id is the same each time it is read, and new ids keep ascending", async () => {
  const bytes = new TextEncoder().encode('{"a":"x","b":"y","c":"z"}');
  const plan = planImport(await parseContentInSlices(bytes), new Map(), "merge", "approved");
  const ids = plan.writes.map((w) => w.id);
  expect(plan.writes.map((w) => w.id)).toEqual(ids);
  expect(new Set(ids).size).toBe(3);
  expect([...ids].sort()).toEqual(ids);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

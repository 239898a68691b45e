/**
 * An import's plan made in slices (`planImportInSlices`, as the job makes it) is the plan made in
 * one pass, from a map and from the rows a push hands its job (`ContentRows`) alike.
 */
import { expect, test } from "bun:test";
import { ContentRows } from "../../core/flatten.ts";
import { type ImportPlan, planImport, planImportInSlices } from "../../core/import-plan.ts";
import type { ExistingRow } from "../../core/types.ts";

/** Keys k0…k(n−1); every third existing row holds another value, every fifth is missing. */
function maps(n: number) {
  const rows = new Map<string, string>();
  const existing = new Map<string, ExistingRow>();
  for (let i = 0; i < n; i++) {
    rows.set(`k${i}`, `value ${i}`);
    if (i % 5 !== 4)
      existing.set(`k${i}`, {
        id: `id${i}`,
        value: i % 3 === 0 ? `old ${i}` : `value ${i}`,
        status: "approved",
      });
  }
  // Keys the content no longer holds: replace deletes them.
  for (let i = n; i < n + 7; i++) existing.set(`k${i}`, { id: `id${i}`, value: "gone", status: "draft" });
  return { rows, existing };
}

/** A created write's id is new each time: compared by whether it was created. */
const comparable = (p: ImportPlan) => ({
  ...p,
  writes: p.writes.map((w) => ({
    key: w.key,
    value: w.value,
    status: w.status,
    id: w.id.startsWith("id") ? w.id : "new",
  })),
});

/** The same rows as the two arrays a push fills. */
function contentRows(rows: ReadonlyMap<string, string>): ContentRows {
  const out = new ContentRows();
  const sink = out.sink();
  for (const [key, value] of rows) sink.add(key, value);
  return out;
}

for (const mode of ["merge", "replace"] as const) {
  test(`${mode}: the plan in slices is the plan in one pass`, async () => {
    const { rows, existing } = maps(5_000);
    const once = planImport(rows, existing, mode, "approved");
    const sliced = await planImportInSlices(rows, existing, mode, "approved");
    expect(comparable(sliced)).toEqual(comparable(once));
    expect(once.deleted).toBe(mode === "replace" ? 7 : 0);
  });
}

for (const mode of ["merge", "replace"] as const) {
  test(`${mode}: the plan of ContentRows in slices is the plan of the map in one pass`, async () => {
    const { rows, existing } = maps(5_000);
    const once = planImport(rows, existing, mode, "approved");
    const sliced = await planImportInSlices(contentRows(rows), existing, mode, "approved");
    expect(comparable(sliced)).toEqual(comparable(once));
    expect(sliced.writes.length).toBe(sliced.created + sliced.updated);
  });
}

test("a status change alone is an update, kept by its row's id", async () => {
  const { existing } = maps(10);
  const restatus = await planImportInSlices(new Map([["k1", "value 1"]]), existing, "merge", "draft");
  expect(restatus.writes.map((w) => w.id)).toEqual(["id1"]);
  expect(restatus.updated).toBe(1);
});

for (const kind of ["map", "ContentRows"] as const) {
  test(`a large plan (${kind}) gives the event loop turns while it is made`, async () => {
    const { rows, existing } = maps(200_000);
    const input = kind === "map" ? rows : contentRows(rows);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const plan = await planImportInSlices(input, existing, "merge", "approved");
      expect(plan.writes.length).toBe(plan.created + plan.updated);
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
  });
}

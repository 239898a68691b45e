/**
 * An import's plan made in slices (`planImportInSlices`, as the job makes it) is the plan made in
 * one pass, and `previous` holds, aligned with the writes, the row each write replaces.
 */
import { expect, test } from "bun:test";
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
  writes: p.writes.map((w, i) => ({ ...w, id: p.previous[i] === null ? "new" : w.id })),
});

for (const mode of ["merge", "replace"] as const) {
  test(`${mode}: the plan in slices is the plan in one pass`, async () => {
    const { rows, existing } = maps(5_000);
    const once = planImport(rows, existing, mode, "approved");
    const sliced = await planImportInSlices(rows, existing, mode, "approved");
    expect(comparable(sliced)).toEqual(comparable(once));
    expect(once.deleted).toBe(mode === "replace" ? 7 : 0);
  });
}

test("previous is aligned with the writes: the row replaced, or null for a created one", async () => {
  const { rows, existing } = maps(1_000);
  const plan = await planImportInSlices(rows, existing, "merge", "approved");
  expect(plan.previous.length).toBe(plan.writes.length);
  plan.writes.forEach((w, i) => {
    const old = existing.get(w.key) ?? null;
    expect(plan.previous[i] ?? null).toBe(old);
    if (old) expect(w.id).toBe(old.id);
  });
  expect(plan.previous.filter((p) => p === null).length).toBe(plan.created);
  // A status change alone is an update too, with its row as previous.
  const restatus = await planImportInSlices(new Map([["k1", "value 1"]]), existing, "merge", "draft");
  expect(restatus.previous).toEqual([existing.get("k1") as ExistingRow]);
});

test("a large plan gives the event loop turns while it is made", async () => {
  const { rows, existing } = maps(200_000);
  let turns = 0;
  const timer = setInterval(() => turns++, 0);
  try {
    const plan = await planImportInSlices(rows, existing, "merge", "approved");
    expect(plan.writes.length).toBe(plan.created + plan.updated);
  } finally {
    clearInterval(timer);
  }
  expect(turns).toBeGreaterThan(0);
});

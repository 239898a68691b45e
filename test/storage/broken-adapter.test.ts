/**
 * The contract suite is the definition of a working adapter, so it must fail a broken one, and say
 * what is broken in its test names. Three faults are planted in an otherwise correct memory store;
 * the suite runs through a collecting test function (as a third party's runner would call it) and
 * exactly the tests about those faults must fail.
 */
import { expect, test } from "bun:test";
import type { Storage } from "../../core/ports.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { runStorageContracts } from "../contract/index.ts";

function brokenStorage(): Storage {
  const storage = createMemoryStorage();
  return {
    ...storage,
    // Fault 1: exports come back in insertion order, not code-point order of key.
    translations: {
      ...storage.translations,
      listForExport: async (projectId, language, ids) => {
        const rows = await storage.translations.listForExport(projectId, language, ids);
        return rows.reverse();
      },
    },
    // Fault 2: deactivating a key changes nothing.
    keys: { ...storage.keys, deactivate: (id) => storage.keys.get(id) },
    // Fault 3: a soft-deleted project is forgotten instead of being returned with deletedAt.
    projects: {
      ...storage.projects,
      get: async (id) => {
        const project = await storage.projects.get(id);
        return project?.deletedAt ? null : project;
      },
    },
  };
}

test("the published suite fails a broken adapter with names that say what is broken", async () => {
  const registered: { name: string; fn: () => Promise<void> }[] = [];
  runStorageContracts(
    "broken",
    async () => {
      const storage = brokenStorage();
      return { storage, teardown: () => storage.close() };
    },
    (name, fn) => registered.push({ name, fn }),
  );
  const failed: string[] = [];
  for (const t of registered) await t.fn().catch(() => failed.push(t.name));

  expect(registered.length).toBeGreaterThan(50);
  expect(failed.sort()).toEqual(
    [
      "broken › KeyStore › deactivate returns the updated key; null when absent",
      "broken › ProjectStore › softDelete sets deletedAt, keeps an earlier one, and get still returns the project",
      // The memory store's own getNow still returns the deleted project, which the broken get does not.
      "broken › ProjectStore › getNow, when it answers, answers as get, also once the project changed",
      // The job's commit is read back through listForExport, in key order.
      "broken › JobStore › complete applies writes and deletes and finishes the job",
      "broken › TranslationStore › listForExport returns id, key, value and status in ascending code-point order of key",
      "broken › TranslationStore › listForExport with ids keeps listed rows of that language only, in key order",
      // Compared with listForExport's rows, which the broken adapter reverses.
      "broken › TranslationStore › listForExportWithSource: listForExport's rows, each with its key's value in the source language",
      "broken › TranslationStore › listPage pages through one language in key order; total counts the whole language",
    ].sort(),
  );
});

/**
 * Coverage is counted once and kept until the project changes (migration 9): the kept counts must
 * follow every kind of change (imports, edits, deleted, restored and renamed keys, base values
 * emptied), whichever instance makes it. Two instances share one store here: two connections to one
 * SQLite file, two clients of one Postgres schema; one reads, the other writes.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParlance } from "../../adapters/create-parlance.ts";
import type { Parlance, Storage } from "../../core/index.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { ownerOf } from "../support/owner-principal.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function twoInstances(kind: "sqlite" | "postgres"): Promise<[Storage, Storage]> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "parlance-coverage-"));
    const [a, b] = [0, 1].map(() => new Database(join(dir, "store.sqlite"), { create: true }));
    cleanups.push(async () => {
      a?.close();
      b?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return [createSqliteStorage(a as Database), createSqliteStorage(b as Database)];
  }
  const schema = await createTestSchema();
  cleanups.push(() => schema.drop());
  const a = await createPostgresStorage(schema.connect());
  return [a, await createPostgresStorage(schema.connect())];
}

const kinds = (await postgresReachable()) ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

for (const kind of kinds) {
  describe(`kept coverage (${kind})`, () => {
    test("follows imports, edits, deletions, restores and renames made by another instance", async () => {
      const [storageA, storageB] = await twoInstances(kind);
      const reader = createParlance({ storage: storageA });
      const writer = createParlance({ storage: storageB });
      cleanups.push(async () => {
        await reader.close();
        await writer.close();
      });
      const org = await writer.admin.createOrg("Acme");
      const project = await writer.admin.createProject({
        orgId: org.id,
        name: "Web",
        baseLanguage: "en",
        languages: ["fr", "de"],
      });
      const owner = ownerOf(org.id);
      const push = async (p: Parlance, language: string, content: Record<string, string>) => {
        const payload = {
          projectId: project.id,
          language,
          content: JSON.stringify(content),
          status: "draft",
        };
        await p.as(org.id, "ci").push(payload);
        await p.idle();
      };
      /** Reference keys, de and fr filled from the API's report, and fr's statuses from the workspace's. */
      const read = async () => {
        const api = await reader.as(org.id, "ci").coverage(project.id);
        const fr = api.locales.find((l) => l.language === "fr");
        const people = (await reader.records.coverage(owner, project.id)).data.find(
          (c) => c.language === "fr",
        );
        return {
          reference: api.referenceKeyCount,
          de: api.locales.find((l) => l.language === "de")?.filledKeys,
          fr: fr?.filledKeys,
          approved: people?.approved,
          missing: people?.missing,
        };
      };

      await push(writer, "en", { k1: "A", k2: "B", k3: "C", k4: "D" });
      await push(writer, "fr", { k1: "a", k2: "b" });
      await push(writer, "de", { k1: "x", k4: "y" });
      expect(await read()).toEqual({ reference: 4, de: 2, fr: 2, approved: 0, missing: 2 });
      // Read again with nothing changed: the kept counts.
      expect(await read()).toEqual({ reference: 4, de: 2, fr: 2, approved: 0, missing: 2 });

      await push(writer, "fr", { k3: "c" });
      expect(await read()).toEqual({ reference: 4, de: 2, fr: 3, approved: 0, missing: 1 });

      // An emptied base value is no reference key any more, for every language.
      await push(writer, "en", { k1: "" });
      expect(await read()).toEqual({ reference: 3, de: 1, fr: 2, approved: 0, missing: 1 });

      const page = await writer.records.browse(owner, project.id, { languages: "fr" });
      const k2 = page.data.find((r) => r.key === "k2")?.records.fr;
      await writer.records.edit(owner, project.id, {
        key: "k2",
        language: "fr",
        status: "approved",
        version: k2?.version ?? null,
      });
      expect(await read()).toEqual({ reference: 3, de: 1, fr: 2, approved: 1, missing: 1 });

      await writer.records.deleteKeys(owner, project.id, { keys: ["k3"] });
      expect(await read()).toEqual({ reference: 2, de: 1, fr: 1, approved: 1, missing: 1 });

      await writer.records.restoreKey(owner, project.id, { key: "k3" });
      expect(await read()).toEqual({ reference: 3, de: 1, fr: 2, approved: 1, missing: 1 });

      // A renamed key moves in every language: nothing changes, but the counts are counted again.
      await writer.records.renameKey(owner, project.id, { from: "k2", to: "k9" });
      expect(await read()).toEqual({ reference: 3, de: 1, fr: 2, approved: 1, missing: 1 });

      await push(writer, "fr", { k4: "d" });
      expect(await read()).toEqual({ reference: 3, de: 1, fr: 3, approved: 1, missing: 0 });
    });
  });
}

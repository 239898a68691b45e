/**
 * An import's created records go in by COPY (storage/postgres/copy-creations.ts): every text
 * arrives as sent, and a key another writer created after the import read the language still
 * lands on that record.
 */
import { expect, test } from "bun:test";
import type { Warning } from "../../core/checks/index.ts";
import type { ImportAudit, Storage } from "../../core/ports.ts";
import type { Actor } from "../../core/principal.ts";
import { foldForSearch } from "../../core/records/fold.ts";
import type { Project, TranslationWrite } from "../../core/types.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { at, id, job, must, seedProject } from "../contract/fixtures.ts";
import { createTestSchema, postgresReachable } from "./postgres-setup.ts";

const ci: Actor = { kind: "api_key", keyId: "k1", name: 'ci "main"\tC:\\bot' };
/** Every third write's warning: its JSON holds quotes, a backslash and a newline. */
const warningOf = (i: number): Warning[] =>
  i % 3 === 0 ? [{ code: "empty", message: `row ${i}: "quoted" \\ and\nmore` }] : [];

/** Claims and completes one import job of `writes`, each of them new unless `previous` says. */
async function runImport(
  storage: Storage,
  p: Project,
  writes: TranslationWrite[],
  previous: ImportAudit["previous"],
  now: string,
): Promise<string> {
  const j = job(p);
  await storage.jobs.create(j);
  const runId = id();
  expect((await storage.jobs.claimNext(runId, now, at(60)))?.id).toBe(j.id);
  const activityId = id();
  const ok = await storage.jobs.complete(
    j.id,
    runId,
    {
      projectId: p.id,
      language: "fr",
      writes,
      deleteIds: [],
      summary: { created: writes.length, updated: 0 },
      audit: {
        actor: ci,
        jobId: j.id,
        previous,
        warnings: writes.map((_, i) => warningOf(i)),
        deleted: [],
        rechecks: [],
        activity: {
          id: activityId,
          projectId: p.id,
          action: "import",
          actor: ci,
          jobId: j.id,
          language: "fr",
          key: null,
          detail: { created: writes.length, updated: 0 },
          at: now,
        },
      },
    },
    now,
  );
  expect(ok).toBe(true);
  return activityId;
}

if (await postgresReachable()) {
  test("created records and their history entries keep every character COPY escapes", async () => {
    const schema = await createTestSchema();
    try {
      const storage = await createPostgresStorage(schema.connect());
      const p = await seedProject(storage, { languages: ["en", "fr"] });
      const odd = [
        "tab\there",
        "line\nbreak",
        "carriage\rreturn",
        "back\\slash",
        "\\N",
        "\\.",
        "",
        "Ünïcödé ✓",
      ];
      const writes: TranslationWrite[] = Array.from({ length: 3000 }, (_, i) => ({
        id: id(),
        key: `k${i}.${odd[i % odd.length]}`,
        value: `${odd[(i + 3) % odd.length]} ${i}`,
        status: "approved",
      }));
      const eventId = await runImport(
        storage,
        p,
        writes,
        writes.map(() => null),
        at(2),
      );
      const records = await storage.records.read(
        p.id,
        writes.map((w) => w.key),
        ["fr"],
      );
      expect(records.length).toBe(writes.length);
      const byKey = new Map(records.map((r) => [r.key, r]));
      for (const w of writes) {
        const r = must(byKey.get(w.key));
        expect([r.id, r.value, r.status, r.version, r.updatedAt]).toEqual([
          w.id,
          w.value,
          "approved",
          1,
          at(2),
        ]);
        expect(r.updatedBy).toEqual(ci);
        expect(r.warnings).toEqual(warningOf(writes.indexOf(w)));
      }
      for (const w of [writes[0], writes[7], writes[2999]].map(must)) {
        const h = await storage.records.history(w.id, null, 10);
        expect(h.items.length).toBe(1);
        expect(h.items[0]).toMatchObject({
          recordId: w.id,
          key: w.key,
          language: "fr",
          eventId,
          action: "import",
          actor: ci,
          oldValue: null,
          oldStatus: null,
          newValue: w.value,
          newStatus: "approved",
          version: 1,
        });
      }
      // The folded search text of non-ASCII records is stored as an upsert stores it.
      const found = await storage.records.matchKeys({
        projectId: p.id,
        baseLanguage: "en",
        languages: ["fr"],
        language: "fr",
        projectLanguages: p.languages,
        filter: { q: foldForSearch("Ünïcödé") },
        after: null,
        limit: 5000,
      });
      const accented = writes.filter((w) => `${w.key}${w.value}`.includes("Ünïcödé"));
      expect(found.toSorted()).toEqual(accented.map((w) => w.key).toSorted());
      await storage.close();
    } finally {
      await schema.drop();
    }
  });

  test("a key another writer created after the import read the language lands on that record", async () => {
    const schema = await createTestSchema();
    try {
      const storage = await createPostgresStorage(schema.connect());
      const p = await seedProject(storage, { languages: ["en", "fr"] });
      // The import planned "taken" as new; another import created it before this one committed.
      const first = { id: id(), key: "taken", value: "first", status: "approved" as const };
      await runImport(storage, p, [first], [null], at(2));
      const planned = { id: id(), key: "taken", value: "second", status: "approved" as const };
      const fresh = { id: id(), key: "fresh", value: "new", status: "approved" as const };
      await runImport(storage, p, [fresh, planned], [null, null], at(3));

      const [fr, taken] = await Promise.all(
        ["fresh", "taken"].map(async (key) => must((await storage.records.read(p.id, [key], ["fr"]))[0])),
      );
      expect(must(fr).id).toBe(fresh.id);
      expect(must(taken)).toMatchObject({ id: first.id, value: "second", version: 2 });
      const h = await storage.records.history(first.id, null, 10);
      expect(h.items.map((e) => [e.newValue, e.version])).toEqual([
        ["second", 2],
        ["first", 1],
      ]);
      expect((await storage.records.history(fresh.id, null, 10)).items.length).toBe(1);
      await storage.close();
    } finally {
      await schema.drop();
    }
  });
}

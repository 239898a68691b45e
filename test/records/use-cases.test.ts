/**
 * The record use cases through the core, as the workspace API calls them: roles and per-language
 * limits, guarded edits, bulk actions, keys, history and revert. HTTP tests cover the transport.
 */

import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import type { Role, UserPrincipal } from "../../core/index.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { embeddedProject } from "../support/embedded-project.ts";

const person = (orgId: string, role: Role, languages: string[] | null = null): UserPrincipal => ({
  kind: "user",
  orgId,
  actor: { kind: "user", userId: `u-${role}`, name: role },
  userId: `u-${role}`,
  role,
  languages,
});

async function world(kind: "memory" | "sqlite") {
  const storage = kind === "memory" ? createMemoryStorage() : createSqliteStorage(new Database(":memory:"));
  const { parlance, org, project, app } = await embeddedProject(storage, ["fr", "de"]);
  await app.push({
    projectId: project.id,
    language: "en",
    content: '{"hello":"Hello {name}","bye":"Bye","tag":"<b>Hi</b>"}',
  });
  await parlance.idle();
  await app.push({
    projectId: project.id,
    language: "fr",
    content: '{"hello":"Bonjour {name}"}',
    status: "pending",
  });
  await parlance.idle();
  return { parlance, org, project, r: parlance.records };
}

for (const kind of ["memory", "sqlite"] as const) {
  describe(`record use cases (${kind})`, () => {
    test("edit: version guard, status rules, per-language limits, warnings, history", async () => {
      const { org, project, r } = await world(kind);
      const translator = person(org.id, "translator", ["fr"]);
      const reviewer = person(org.id, "reviewer");
      const page = await r.browse(translator, project.id, { languages: "fr" });
      const hello = page.data.find((row) => row.key === "hello")?.records.fr;
      expect(hello?.version).toBe(1);
      // A translator may not approve, nor write German.
      await expect(
        r.edit(translator, project.id, { key: "hello", language: "fr", status: "approved", version: 1 }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        r.edit(translator, project.id, { key: "bye", language: "de", value: "Tschüss", version: 0 }),
      ).rejects.toMatchObject({ code: "forbidden" });
      const edited = await r.edit(translator, project.id, {
        key: "hello",
        language: "fr",
        value: "Bonjour",
        version: 1,
      });
      expect(edited).toMatchObject({
        version: 2,
        status: "pending",
        updatedBy: { kind: "user", id: "u-translator", name: "translator" },
      });
      expect(edited.warnings.map((w) => w.code)).toEqual(["placeholder-missing"]);
      // The same stale version again: 412 with the current record.
      const stale = await r
        .edit(translator, project.id, { key: "hello", language: "fr", value: "Salut", version: 1 })
        .catch((e) => e);
      expect(stale.code).toBe("precondition_failed");
      expect(stale.current).toMatchObject({ version: 2, value: "Bonjour" });
      // A reviewer's value change keeps the status; approving is theirs.
      const approved = await r.edit(reviewer, project.id, {
        key: "hello",
        language: "fr",
        status: "approved",
        version: 2,
      });
      expect(approved.status).toBe("approved");
      const kept = await r.edit(reviewer, project.id, {
        key: "hello",
        language: "fr",
        value: "Bonjour {name}",
        version: 3,
      });
      expect(kept).toMatchObject({ status: "approved", version: 4, warnings: [] });
      // Creating a record: version 0; again with 0 is stale.
      const created = await r.edit(translator, project.id, {
        key: "bye",
        language: "fr",
        value: "Au revoir",
        version: 0,
      });
      expect(created).toMatchObject({ version: 1, status: "pending" });
      await expect(
        r.edit(translator, project.id, { key: "bye", language: "fr", value: "x", version: 0 }),
      ).rejects.toMatchObject({ code: "precondition_failed" });
      await expect(
        r.edit(translator, project.id, { key: "nope", language: "fr", value: "x", version: 0 }),
      ).rejects.toMatchObject({ code: "not_found" });
      const history = await r.history(reviewer, project.id, { key: "hello", language: "fr" });
      expect(history.data.map((e) => [e.action, e.old?.value ?? null, e.new?.value ?? null])).toEqual([
        ["edit", "Bonjour", "Bonjour {name}"],
        ["edit", "Bonjour", "Bonjour"],
        ["edit", "Bonjour {name}", "Bonjour"],
        ["import", null, "Bonjour {name}"],
      ]);
      // Revert to the import: a new entry; stale versions refused.
      const first = history.data[3];
      await expect(
        r.revert(reviewer, project.id, { key: "hello", language: "fr", entryId: first?.id, version: 3 }),
      ).rejects.toMatchObject({ code: "precondition_failed" });
      const reverted = await r.revert(reviewer, project.id, {
        key: "hello",
        language: "fr",
        entryId: first?.id,
        version: 4,
      });
      expect(reverted).toMatchObject({ value: "Bonjour {name}", status: "pending", version: 5 });
      expect((await r.history(reviewer, project.id, { key: "hello", language: "fr" })).data[0]?.action).toBe(
        "revert",
      );
    });

    test("two concurrent edits of one version: exactly one wins", async () => {
      const { org, project, r } = await world(kind);
      const a = person(org.id, "translator");
      const results = await Promise.allSettled([
        r.edit(a, project.id, { key: "hello", language: "fr", value: "A", version: 1 }),
        r.edit(a, project.id, { key: "hello", language: "fr", value: "B", version: 1 }),
      ]);
      expect(results.filter((x) => x.status === "fulfilled").length).toBe(1);
      const failed = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
      expect(failed.reason.code).toBe("precondition_failed");
    });

    test("bulk status and copy-base over a filter, in one activity item each", async () => {
      const { org, project, r } = await world(kind);
      const reviewer = person(org.id, "reviewer");
      const translator = person(org.id, "translator");
      expect(
        await r.bulk(translator, project.id, {
          language: "fr",
          action: "copy-base",
          filter: { missing: true },
        }),
      ).toEqual({ changed: 2 });
      const page = await r.browse(reviewer, project.id, { languages: "fr", status: "draft" });
      expect(page.data.map((row) => [row.key, row.records.fr?.value])).toEqual([
        ["bye", "Bye"],
        ["tag", "<b>Hi</b>"],
      ]);
      await expect(
        r.bulk(translator, project.id, {
          language: "fr",
          action: "status",
          status: "approved",
          keys: ["bye"],
        }),
      ).rejects.toMatchObject({ code: "forbidden" });
      expect(
        await r.bulk(reviewer, project.id, {
          language: "fr",
          action: "status",
          status: "approved",
          filter: { status: ["draft", "pending"] },
        }),
      ).toEqual({ changed: 3 });
      const feed = await r.activity(reviewer, project.id, {});
      expect(feed.data.map((a) => [a.action, a.detail.records ?? null])).toEqual([
        ["bulk", 3],
        ["bulk", 2],
        ["import", null],
        ["import", null],
      ]);
      const coverage = await r.coverage(reviewer, project.id);
      expect(coverage.data.find((c) => c.language === "fr")).toEqual({
        language: "fr",
        referenceKeys: 3,
        missing: 0,
        draft: 0,
        pending: 0,
        needs_review: 0,
        approved: 3,
        warnings: 0,
      });
    });

    test("keys: add, rename, delete and restore, by role", async () => {
      const { org, project, r, parlance } = await world(kind);
      const dev = person(org.id, "developer");
      const admin = person(org.id, "admin");
      await expect(r.addKey(person(org.id, "translator"), project.id, { key: "new" })).rejects.toMatchObject({
        code: "forbidden",
      });
      expect(await r.addKey(dev, project.id, { key: "new", baseValue: "New" })).toMatchObject({
        key: "new",
        language: "en",
        version: 1,
      });
      await expect(r.addKey(dev, project.id, { key: "new" })).rejects.toMatchObject({ code: "conflict" });
      await expect(r.addKey(dev, project.id, { key: "a..b" })).rejects.toMatchObject({
        code: "invalid_input",
      });
      expect(await r.renameKey(dev, project.id, { from: "hello", to: "greeting" })).toEqual({
        key: "greeting",
        records: 2,
      });
      await expect(r.renameKey(dev, project.id, { from: "greeting", to: "bye" })).rejects.toMatchObject({
        code: "conflict",
      });
      const history = await r.history(dev, project.id, { key: "greeting", language: "fr" });
      expect(history.data.map((e) => e.action)).toEqual(["key.rename", "import"]);
      expect(await r.deleteKeys(dev, project.id, { keys: ["greeting"] })).toEqual({ deleted: 2 });
      await expect(r.listDeletedKeys(dev, project.id)).rejects.toMatchObject({ code: "forbidden" });
      const deleted = await r.listDeletedKeys(admin, project.id);
      expect(deleted.data.map((d) => [d.key, d.languages])).toEqual([["greeting", ["en", "fr"]]]);
      await expect(r.restoreKey(dev, project.id, { key: "greeting" })).rejects.toMatchObject({
        code: "forbidden",
      });
      expect(await r.restoreKey(admin, project.id, { key: "greeting" })).toEqual({
        key: "greeting",
        records: 2,
      });
      const pulled = await parlance.as(org.id).pull({ projectId: project.id, language: "fr" });
      expect(pulled).toBeDefined();
      // The operator's command line writes history too.
      const op = await parlance.admin.setRecord({
        projectId: project.id,
        language: "de",
        key: "bye",
        value: "Tschüss",
      });
      expect(op.updatedBy).toEqual({ kind: "operator" });
      expect((await r.history(admin, project.id, { key: "bye", language: "de" })).data[0]?.actor).toEqual({
        kind: "operator",
      });
    });
  });
}

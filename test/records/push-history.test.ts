/**
 * A push job writes history, warnings and one activity item in its own transaction, on every store:
 * what the workspace shows of a CI push.
 */

import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import type { Storage } from "../../core/ports.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { embeddedProject } from "../support/embedded-project.ts";

const stores: [string, () => Storage][] = [
  ["memory", () => createMemoryStorage()],
  ["sqlite", () => createSqliteStorage(new Database(":memory:"))],
];

for (const [name, open] of stores) {
  describe(`push history (${name})`, () => {
    test("a push writes one entry per changed row, warnings against the base, and one activity item", async () => {
      const storage = open();
      const { parlance, project, app } = await embeddedProject(storage, ["fr"]);
      await app.push({
        projectId: project.id,
        language: "en",
        content: '{"hello":"Hello {name}","bye":"Bye"}',
      });
      await parlance.idle();
      await app.push({ projectId: project.id, language: "fr", content: '{"hello":"Bonjour","bye":"Salut"}' });
      await parlance.idle();
      const [hello] = await storage.records.read(project.id, ["hello"], ["fr"]);
      expect(hello?.version).toBe(1);
      expect(hello?.updatedBy).toEqual({ kind: "app", name: "ci" });
      expect(hello?.warnings.map((w) => w.code)).toEqual(["placeholder-missing"]);
      // The base changes: the French record is checked again without a new version.
      await app.push({ projectId: project.id, language: "en", content: '{"hello":"Hello","bye":"Bye"}' });
      await parlance.idle();
      const [again] = await storage.records.read(project.id, ["hello"], ["fr"]);
      expect(again).toMatchObject({ version: 1, warnings: [] });
      const [base] = await storage.records.read(project.id, ["hello"], ["en"]);
      const history = await storage.records.history(base?.id ?? "", null, 10);
      expect(history.items.map((e) => [e.oldValue, e.newValue, e.version])).toEqual([
        ["Hello {name}", "Hello", 2],
        [null, "Hello {name}", 1],
      ]);
      const feed = await storage.records.activity(project.id, null, 10);
      expect(feed.items.map((a) => [a.action, a.language, a.detail])).toEqual([
        ["import", "en", { created: 0, updated: 1 }],
        ["import", "fr", { created: 2, updated: 0 }],
        ["import", "en", { created: 2, updated: 0 }],
      ]);
      await parlance.close();
    });

    test("warnings of a push larger than one batch of checks land on exactly the rows they concern", async () => {
      const storage = open();
      const { parlance, project, app } = await embeddedProject(storage, ["fr"]);
      const keys = Array.from({ length: 5_000 }, (_, i) => `k${String(i).padStart(4, "0")}`);
      const file = (value: (i: number) => string) =>
        JSON.stringify(Object.fromEntries(keys.map((key, i) => [key, value(i)])));
      await app.push({ projectId: project.id, language: "en", content: file((i) => `Hello {name} ${i}`) });
      await parlance.idle();
      // Every odd row drops the placeholder: 2,500 warnings spread over three batches of checks.
      await app.push({
        projectId: project.id,
        language: "fr",
        content: file((i) => (i % 2 ? `Bonjour ${i}` : `Bonjour {name} ${i}`)),
      });
      await parlance.idle();
      const records = await storage.records.read(project.id, keys, ["fr"]);
      const warned = records.filter((r) => r.warnings.length > 0).map((r) => r.key);
      expect(warned).toEqual(keys.filter((_, i) => i % 2 === 1));
      await parlance.close();
    });
  });
}

/**
 * Pushes read their contents in slices, so several are read at once; one of them hands its rows to
 * the runner, the others' jobs read their stored bytes. Whatever the interleaving, each language
 * gets its own push's rows, on every store.
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

const LANGUAGES = ["fr", "de", "es"];
/** Large enough to be read over several slices (past the size read at once). */
const ROWS = 8_000;
const pushedValue = (language: string, i: number) => `${language} ${i} ${"v".repeat(24)}`;

for (const [name, open] of stores) {
  describe(`concurrent pushes (${name})`, () => {
    test("three large pushes at once: each language gets its own rows", async () => {
      const { parlance, project, app } = await embeddedProject(open(), LANGUAGES);
      const content = (language: string) =>
        JSON.stringify(
          Object.fromEntries(Array.from({ length: ROWS }, (_, i) => [`k${i}`, pushedValue(language, i)])),
        );
      await Promise.all(
        LANGUAGES.map((language) =>
          app.push({ projectId: project.id, language, content: content(language) }),
        ),
      );
      await parlance.idle();
      for (const language of LANGUAGES) {
        const rows = await parlance.storage.translations.readLanguage(project.id, language);
        expect(rows.size).toBe(ROWS);
        for (const i of [0, ROWS / 2, ROWS - 1])
          expect(rows.get(`k${i}`)?.value).toBe(pushedValue(language, i));
      }
      await parlance.close();
    });
  });
}

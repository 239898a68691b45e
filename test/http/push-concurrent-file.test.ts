/**
 * The server as `serve` opens a database file: the job of each push is stored on the import
 * connection in a transaction that yields, and pushes read their contents in slices. Several large
 * pushes at once must each be accepted and applied whole, with nothing logged as a warning or error.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/types.ts";
import { createServer } from "../../server/app.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { openRuntime } from "../../server/runtime.ts";
import { tempDatabaseFile } from "../storage/sqlite-import-fixtures.ts";

const LANGUAGES = ["fr", "de", "es", "it"];
const ROWS = 20_000;
/** Over 1 MiB each, so each job's content is stored in several parts, turns between them. */
const pushedValue = (language: string, i: number) => `${language} value ${i} ${"x".repeat(40)} é`;

test("four large pushes at once on a database file: all accepted, all applied whole", async () => {
  const config = readConfig({ PARLANCE_DATABASE_URL: `sqlite:${tempDatabaseFile("parlance-push-")}` });
  const logged: unknown[] = [];
  const runtime = await openRuntime(
    config,
    (level, message, fields) => {
      if (level !== "info") logged.push({ level, message, fields });
    },
    bunHost,
  );
  const parlance = runtime.parlance;
  try {
    await parlance.start();
    const app = createServer(parlance, { onRequest: runtime.traffic.note });
    const org = await parlance.admin.createOrg("Org");
    const project = await parlance.admin.createProject({
      orgId: org.id,
      name: "P",
      baseLanguage: "en",
      languages: ["en", ...LANGUAGES],
    });
    const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    const push = (language: string) => {
      const content = JSON.stringify(
        Object.fromEntries(Array.from({ length: ROWS }, (_, i) => [`k${i}`, pushedValue(language, i)])),
      );
      expect(content.length).toBeGreaterThan(1024 * 1024);
      return app.handle(
        new Request("http://localhost/api/v1/push", {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
          body: JSON.stringify({ projectId: project.id, language, content }),
        }),
      );
    };
    const answers = await Promise.all(LANGUAGES.map(push));
    expect(answers.map((r) => r.status)).toEqual(LANGUAGES.map(() => 202));
    for (let waited = 0; (await parlance.storage.jobs.countUnfinished()) > 0; waited += 50) {
      expect(waited).toBeLessThan(60_000);
      await Bun.sleep(50);
    }
    for (const language of LANGUAGES) {
      const rows = await parlance.storage.translations.readLanguage(project.id, language);
      expect(rows.size).toBe(ROWS);
      expect(rows.get("k0")?.value).toBe(pushedValue(language, 0));
      expect(rows.get(`k${ROWS - 1}`)?.value).toBe(pushedValue(language, ROWS - 1));
    }
    expect(logged).toEqual([]);
  } finally {
    await runtime.close();
  }
}, 120_000);

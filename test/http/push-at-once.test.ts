/**
 * Several pushes at once, through the server as `serve` wires it, must each be accepted and applied
 * whole, with nothing logged as a warning or error:
 * - on a database file, where the job of each push is stored on the import connection in a
 *   transaction that yields, and pushes read their contents in slices;
 * - on the memory store, which keeps its own copy of each content (JobStore.create).
 * In both, the server releases each push's body once the push is answered (server/push-body.ts) and
 * tells the host when the body is large (a full collection), and a job whose rows were not handed over reads the content its store kept.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/types.ts";
import { createServer } from "../../server/app.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { COLLECT_AFTER_BODY_BYTES } from "../../server/push-body.ts";
import { openRuntime } from "../../server/runtime.ts";
import { tempDatabaseFile } from "../storage/sqlite-import-fixtures.ts";

const LANGUAGES = ["fr", "de", "es", "it"];

/** Pushes `rows` keys into each of LANGUAGES at once, then checks every job and every value. */
async function pushAtOnce(
  databaseUrl: string,
  rows: number,
  pushedValue: (language: string, i: number) => string,
  bodiesAreLarge: boolean,
) {
  const logged: unknown[] = [];
  const runtime = await openRuntime(
    readConfig({ PARLANCE_DATABASE_URL: databaseUrl }),
    (level, message, fields) => {
      if (level !== "info") logged.push({ level, message, fields });
    },
    bunHost,
  );
  const parlance = runtime.parlance;
  try {
    await parlance.start();
    let released = 0;
    const app = createServer(parlance, {
      onRequest: runtime.traffic.note,
      returnFreeMemory: () => void released++,
    });
    const org = await parlance.admin.createOrg("Org");
    const project = await parlance.admin.createProject({
      orgId: org.id,
      name: "P",
      baseLanguage: "en",
      languages: ["en", ...LANGUAGES],
    });
    const key = await parlance.admin.createKey(org.id, { name: "ci", scopes: [...SCOPES] });
    let large = 0;
    const push = (language: string) => {
      const content = JSON.stringify(
        Object.fromEntries(Array.from({ length: rows }, (_, i) => [`k${i}`, pushedValue(language, i)])),
      );
      const body = JSON.stringify({ projectId: project.id, language, content });
      if (Buffer.byteLength(body) >= COLLECT_AFTER_BODY_BYTES) large++;
      return app.handle(
        new Request("http://localhost/api/v1/push", {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
          body,
        }),
      );
    };
    const answers = await Promise.all(LANGUAGES.map(push));
    expect(answers.map((r) => r.status)).toEqual(LANGUAGES.map(() => 202));
    // Each push's body was released as it was answered, and the host told so once per large body.
    expect(released).toBe(large);
    expect(large).toBe(bodiesAreLarge ? LANGUAGES.length : 0);
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { jobId: string }).jobId));
    for (let waited = 0; (await parlance.storage.jobs.countUnfinished()) > 0; waited += 50) {
      expect(waited).toBeLessThan(60_000);
      await Bun.sleep(50);
    }
    for (const id of ids) expect((await parlance.storage.jobs.get(id))?.status).toBe("completed");
    for (const language of LANGUAGES) {
      const stored = await parlance.storage.translations.readLanguage(project.id, language);
      expect(stored.size).toBe(rows);
      for (let i = 0; i < rows; i++) expect(stored.get(`k${i}`)?.value).toBe(pushedValue(language, i));
    }
    expect(logged).toEqual([]);
  } finally {
    await runtime.close();
  }
}

test("four large pushes at once on a database file: all accepted, all applied whole", async () => {
  const rows = 20_000;
  /** Over 1 MiB each, so each job's content is stored in several parts, turns between them. */
  const value = (language: string, i: number) => `${language} value ${i} ${"x".repeat(40)} é`;
  expect(
    JSON.stringify(Object.fromEntries([...Array(rows).keys()].map((i) => [`k${i}`, value("fr", i)]))).length,
  ).toBeGreaterThan(1024 * 1024);
  await pushAtOnce(`sqlite:${tempDatabaseFile("parlance-push-")}`, rows, value, true);
}, 120_000);

test("four pushes at once on the memory store: all accepted, all applied whole", async () => {
  await pushAtOnce("memory:", 3_000, (language, i) => `${language} value ${i} é`, false);
}, 60_000);

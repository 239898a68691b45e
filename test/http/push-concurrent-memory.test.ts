/**
 * The server releases each push's body once the push is answered (server/push-body.ts); a job
 * whose rows were not handed over then reads the content its store kept. On the memory store too,
 * which keeps its own copy of the content (JobStore.create): several pushes at once, all applied.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/types.ts";
import { createServer } from "../../server/app.ts";
import { readConfig } from "../../server/config.ts";
import { bunHost } from "../../server/host-bun.ts";
import { openRuntime } from "../../server/runtime.ts";

const LANGUAGES = ["fr", "de", "es", "it"];
const ROWS = 3_000;
const pushedValue = (language: string, i: number) => `${language} value ${i} é`;

test("four pushes at once on the memory store: all accepted, all applied whole", async () => {
  const runtime = await openRuntime(readConfig({ PARLANCE_DATABASE_URL: "memory:" }), () => {}, bunHost);
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
    const push = (language: string) =>
      app.handle(
        new Request("http://localhost/api/v1/push", {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            projectId: project.id,
            language,
            content: JSON.stringify(
              Object.fromEntries(Array.from({ length: ROWS }, (_, i) => [`k${i}`, pushedValue(language, i)])),
            ),
          }),
        }),
      );
    const answers = await Promise.all(LANGUAGES.map(push));
    expect(answers.map((r) => r.status)).toEqual(LANGUAGES.map(() => 202));
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { jobId: string }).jobId));
    for (let waited = 0; (await parlance.storage.jobs.countUnfinished()) > 0; waited += 20) {
      expect(waited).toBeLessThan(30_000);
      await Bun.sleep(20);
    }
    for (const id of ids) expect((await parlance.storage.jobs.get(id))?.status).toBe("completed");
    for (const language of LANGUAGES) {
      const rows = await parlance.storage.translations.readLanguage(project.id, language);
      expect(rows.size).toBe(ROWS);
      for (let i = 0; i < ROWS; i++) expect(rows.get(`k${i}`)?.value).toBe(pushedValue(language, i));
    }
  } finally {
    await runtime.close();
  }
}, 60_000);

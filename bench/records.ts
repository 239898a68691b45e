/**
 * Records figures, in process on a SQLite file (server time without the HTTP hop): a filtered
 * browse page and a text search over a 50,000-key project, and one guarded record edit. The issue
 * sets absolute targets (≤ 20 ms, ≤ 50 ms, ≤ 5 ms p50), so each figure's floor is its target and
 * the ratio must stay at most 1.
 */
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createParlance } from "../adapters/create-parlance.ts";
import type { UserPrincipal } from "../core/index.ts";
import { createSqliteStorage } from "../storage/sqlite/index.ts";
import { BROWSE_FILTERED, BROWSE_SEARCH, EDIT_P50, RECORD_TARGET_MS } from "./names.ts";
import type { Options } from "./options.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";

type Log = (message: string) => void;

const round = (ms: number) => Math.round(ms * 10) / 10;

const STATUSES = ["draft", "pending", "approved", "needs_review"] as const;
const WORDS = [
  "account",
  "settings",
  "profile",
  "billing",
  "invoice",
  "team",
  "project",
  "export",
  "import",
  "search",
];

/** en: every key; fr: six keys in seven, statuses in turn, one in fifty missing a placeholder. */
function documents(rows: number) {
  const en: Record<string, string> = {};
  const fr: Record<string, string> = {};
  for (let i = 0; i < rows; i++) {
    const key = `${WORDS[i % 10]}.${WORDS[(i >> 3) % 10]}.item${i}`;
    en[key] = `The ${WORDS[i % 10]} number ${i} of {name}, café ${i % 997}`;
    if (i % 7 !== 3) fr[key] = i % 50 === 0 ? `Le numéro ${i}` : `Le ${WORDS[i % 10]} numéro ${i} de {name}`;
  }
  return { en, fr };
}

export async function benchRecords(
  options: Options,
  want: (name: string) => boolean,
  tmp: string,
  log: Log,
): Promise<Figure[]> {
  const file = join(tmp, `records-${process.pid}.sqlite`);
  const db = new Database(file, { create: true });
  const storage = createSqliteStorage(db);
  const parlance = createParlance({ storage });
  try {
    const org = await parlance.admin.createOrg("Bench");
    const project = await parlance.admin.createProject({
      orgId: org.id,
      name: "Big",
      baseLanguage: "en",
      languages: ["fr", "de"],
    });
    const app = parlance.as(org.id, "bench");
    const docs = documents(options.rows);
    log(`records: seeding ${options.rows} keys in en and fr`);
    await app.push({ projectId: project.id, language: "en", content: JSON.stringify(docs.en) });
    // A quarter of fr in each status, in turn.
    for (const [n, status] of STATUSES.entries()) {
      const part = Object.fromEntries(Object.entries(docs.fr).filter((_, i) => i % 4 === n));
      await app.push({ projectId: project.id, language: "fr", content: JSON.stringify(part), status });
    }
    await parlance.idle();
    const me: UserPrincipal = {
      kind: "user",
      orgId: org.id,
      actor: { kind: "user", userId: "u-bench", name: "Bench" },
      userId: "u-bench",
      role: "reviewer",
      languages: null,
    };
    // Every seeding job must have applied: a figure over a half-seeded project would mislead.
    const seeded = (await parlance.records.browse(me, project.id, { languages: "fr", limit: "1" })).counts;
    const frRows = seeded.draft + seeded.pending + seeded.approved + seeded.needs_review;
    if (frRows !== Object.keys(docs.fr).length) {
      throw new Error(`records: seeding left ${frRows} fr records of ${Object.keys(docs.fr).length}`);
    }
    const time = async (run: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let n = 0; n < options.warmups + options.runs * 4; n++) {
        const start = performance.now();
        await run();
        if (n >= options.warmups) samples.push(since(start));
      }
      return samples;
    };
    const figures: Figure[] = [];
    const figure = (name: string, samples: number[], details: Record<string, number>) =>
      makeFigure(name, "ms", samples, [RECORD_TARGET_MS[name] as number], { details });
    if (want(BROWSE_FILTERED)) {
      // A page deep in the key order: drafts with warnings, from a cursor in the middle.
      let shown = 0;
      let total = 0;
      const samples = await time(async () => {
        const page = await parlance.records.browse(me, project.id, {
          languages: "fr",
          status: "draft,pending",
          warnings: "true",
        });
        shown = page.data.length;
        total = page.counts.total;
      });
      const missing = await time(() =>
        parlance.records.browse(me, project.id, { languages: "fr", missing: "true" }),
      );
      // Right after a write, when nothing remembered of the counts still holds.
      const coldSamples: number[] = [];
      for (let n = 0; n < options.runs * 2; n++) {
        await parlance.admin.setRecord({
          projectId: project.id,
          language: "de",
          key: "bench.cold",
          value: `${n}`,
        });
        const start = performance.now();
        await parlance.records.browse(me, project.id, {
          languages: "fr",
          status: "draft,pending",
          warnings: "true",
        });
        coldSamples.push(since(start));
      }
      figures.push(
        figure(BROWSE_FILTERED, samples, {
          rows: shown,
          matching: total,
          missingFilterMs: round(median(missing)),
          afterWriteMs: round(median(coldSamples)),
        }),
      );
    }
    if (want(BROWSE_SEARCH)) {
      let total = 0;
      const samples = await time(async () => {
        const page = await parlance.records.browse(me, project.id, { languages: "fr", q: "CAFE 99" });
        total = page.counts.total;
      });
      figures.push(figure(BROWSE_SEARCH, samples, { matching: total }));
    }
    if (want(EDIT_P50)) {
      const page = await parlance.records.browse(me, project.id, { languages: "fr", limit: "500" });
      const targets = page.data.flatMap((r) => (r.records.fr ? [r.records.fr] : []));
      let n = 0;
      const samples = await time(async () => {
        const r = targets[n++ % targets.length];
        if (!r) return;
        const edited = await parlance.records.edit(me, project.id, {
          key: r.key,
          language: "fr",
          value: `${r.value}!`,
          version: r.version,
        });
        targets[(n - 1) % targets.length] = edited;
      });
      figures.push(figure(EDIT_P50, samples, {}));
    }
    return figures;
  } finally {
    await parlance.close();
    db.close();
    if (!process.env.KEEP_BENCH_DB)
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  }
}

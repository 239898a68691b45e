/**
 * Records figures, in process (server time without the HTTP hop) on a SQLite file and on a fresh
 * Postgres database: a filtered browse page and a text search over a 50,000-key project, and (on
 * SQLite) one guarded record edit. The issue sets absolute targets (≤ 20 ms, ≤ 50 ms, ≤ 5 ms p50),
 * so each figure's floor is its target and the ratio must stay at most 1.
 */
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { createParlance } from "../adapters/create-parlance.ts";
import type { Storage, UserPrincipal } from "../core/index.ts";
import { createPostgresStorage } from "../storage/postgres/index.ts";
import { createSqliteStorage } from "../storage/sqlite/index.ts";
import { browseFiltered, browseSearch, EDIT_P50, RECORD_TARGET_MS, STORES, type StoreKind } from "./names.ts";
import type { Options } from "./options.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";
import { POSTGRES_URL } from "./target.ts";

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
  const figures: Figure[] = [];
  for (const store of STORES) {
    const names = [browseFiltered(store), browseSearch(store), ...(store === "sqlite" ? [EDIT_P50] : [])];
    if (!names.some(want)) continue;
    const opened = await openStore(store, tmp);
    try {
      figures.push(...(await benchStore(store, opened, options, want, log)));
    } finally {
      await opened.close();
    }
  }
  return figures;
}

interface OpenedStore {
  storage: Storage;
  /** After seeding: what the store's own maintenance does soon after a large write. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh store: a SQLite file in `tmp`, or a database of its own on the bench's Postgres cluster. */
async function openStore(store: StoreKind, tmp: string): Promise<OpenedStore> {
  if (store === "sqlite") {
    const file = join(tmp, `records-${process.pid}.sqlite`);
    const db = new Database(file, { create: true });
    const storage = createSqliteStorage(db);
    return {
      storage,
      async settle() {},
      async close() {
        await storage.close();
        db.close();
        if (!process.env.KEEP_BENCH_DB)
          for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
      },
    };
  }
  const name = `bench_records_${randomBytes(6).toString("hex")}`;
  const root = postgres(POSTGRES_URL, { onnotice: () => {}, max: 1 });
  await root.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { onnotice: () => {}, max: 4 });
  const storage = await createPostgresStorage(sql);
  return {
    storage,
    // Autovacuum analyzes and vacuums a table soon after 50,000 inserts; the bench does not wait
    // for it (on a loaded machine it may take minutes): planner statistics, and the visibility
    // map that lets counts read the index alone.
    async settle() {
      await sql`VACUUM (ANALYZE) translations`;
    },
    async close() {
      await storage.close();
      await sql.end({ timeout: 5 });
      await root.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await root.end({ timeout: 5 });
    },
  };
}

async function benchStore(
  store: StoreKind,
  { storage, settle }: OpenedStore,
  options: Options,
  want: (name: string) => boolean,
  log: Log,
): Promise<Figure[]> {
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
    log(`records: seeding ${options.rows} keys in en and fr on ${store}`);
    await app.push({ projectId: project.id, language: "en", content: JSON.stringify(docs.en) });
    // A quarter of fr in each status, in turn.
    for (const [n, status] of STATUSES.entries()) {
      const part = Object.fromEntries(Object.entries(docs.fr).filter((_, i) => i % 4 === n));
      await app.push({ projectId: project.id, language: "fr", content: JSON.stringify(part), status });
    }
    await parlance.idle();
    await settle();
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
    // A second project, written between browses of the first: its writes must not cost the first.
    const other = await parlance.admin.createProject({
      orgId: org.id,
      name: "Small",
      baseLanguage: "en",
      languages: ["fr"],
    });
    if (want(browseFiltered(store))) {
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
      // Right after a write to another project.
      const otherSamples: number[] = [];
      for (let n = 0; n < options.runs * 2; n++) {
        await parlance.admin.setRecord({ projectId: other.id, language: "fr", key: "other", value: `${n}` });
        const start = performance.now();
        await parlance.records.browse(me, project.id, {
          languages: "fr",
          status: "draft,pending",
          warnings: "true",
        });
        otherSamples.push(since(start));
      }
      figures.push(
        figure(browseFiltered(store), samples, {
          rows: shown,
          matching: total,
          missingFilterMs: round(median(missing)),
          afterWriteMs: round(median(coldSamples)),
          afterOtherProjectWriteMs: round(median(otherSamples)),
        }),
      );
    }
    if (want(browseSearch(store))) {
      let total = 0;
      const samples = await time(async () => {
        const page = await parlance.records.browse(me, project.id, { languages: "fr", q: "CAFE 99" });
        total = page.counts.total;
      });
      figures.push(figure(browseSearch(store), samples, { matching: total }));
    }
    if (store === "sqlite" && want(EDIT_P50)) {
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
  }
}

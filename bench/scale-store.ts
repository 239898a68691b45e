/**
 * The stores of the scale figures, built once through Parlance itself and kept between runs.
 *
 * The first project is filled by real imports (`push` in process through the core, as the import
 * job writes them: records with versions, warnings, history entries, the activity item, the
 * completed job) and copied in SQL to the others, so the store holds what a real instance would.
 * Building 4 million rows still takes minutes, so the result is cached: a SQLite file under `.bench-cache/` (PARLANCE_BENCH_CACHE) and a Postgres
 * database `parlance_bench_<name>` on the bench's cluster. Each run works on a copy (a file copy; a
 * database created from the cached one as its template), so what a run writes never reaches the cache.
 * A cache is rebuilt when its schema version, the builder's version or its shape differ.
 */
import { Database } from "bun:sqlite";
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { createParlance } from "../adapters/create-parlance.ts";
import { systemClock } from "../adapters/system-clock.ts";
import { openStore } from "../server/open-store.ts";
import { postgresMigrations } from "../storage/postgres/index.ts";
import { SQLITE_MIGRATIONS } from "../storage/sqlite/index.ts";
import { DocumentSet } from "./data.ts";
import type { StoreKind } from "./names.ts";
import { REPO } from "./process.ts";

/** Bump when what the builder writes changes: every cache is rebuilt. */
const BUILDER_VERSION = 1;

export interface StoreShape {
  /** Names the cache: `.bench-cache/<name>.sqlite`, database `parlance_bench_<name>`. */
  name: string;
  projects: number;
  keys: number;
  /** The base `en` first. */
  languages: readonly string[];
}

/** What a built store holds and where: kept next to the cache (SQLite) or as the database's comment. */
export interface BuiltStore {
  builder: number;
  /** The last migration's version and a hash of every migration. */
  schema: string;
  shape: StoreShape;
  orgId: string;
  /** In the order built; the first is the one the figures measure. */
  projectIds: string[];
  rows: number;
  buildSeconds: number;
  builtAt: string;
}

const LANGUAGES_10 = ["en", "fr", "de", "es", "it", "nl", "pt", "ja", "ko", "zh"] as const;

/** The three stores: 40 projects × 50,000 keys × 2 languages, the same project alone, and 10 languages. */
export function scaleShapes(smoke: boolean): {
  scale: StoreShape;
  empty: StoreShape;
  languages10: StoreShape;
} {
  const keys = smoke ? 300 : 50_000;
  const suffix = smoke ? "-smoke" : "";
  return {
    scale: { name: `scale${suffix}`, projects: smoke ? 3 : 40, keys, languages: ["en", "fr"] },
    empty: { name: `scale-empty${suffix}`, projects: 1, keys, languages: ["en", "fr"] },
    languages10: { name: `scale-10lang${suffix}`, projects: 1, keys, languages: LANGUAGES_10 },
  };
}

const WORDS = (
  "account add address all allow amount apply archive back balance billing cancel card change check " +
  "choose close confirm connect continue copy create date default delete details device done download " +
  "draft edit email enable error export field file filter find folder help hide history home import " +
  "invite item language limit link list load login manage message month name network next note open " +
  "order owner page password payment plan preview price print profile project publish report request " +
  "reset review save search select send settings share show sign size start status submit team theme"
).split(" ");

/**
 * One language of one project: the keys of the push documents (screen_NNN.panel_NN.label_NN), values
 * of 3 to 9 words (about 45 characters, the length of a typical UI string), different per project
 * and language, with a placeholder in one value in ten.
 */
export function scaleDocument(keys: number, project: number, language: string): string {
  let seed = (0x9e3779b1 ^ Math.imul(project + 1, 0x85ebca6b) ^ hashString(language)) >>> 0;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  const root: Record<string, Record<string, Record<string, string>>> = {};
  for (let i = 0; i < keys; i++) {
    const [screen, panel, label] = DocumentSet.path(i);
    const words = Array.from({ length: 3 + (next() % 7) }, () => WORDS[next() % WORDS.length]);
    if (i % 10 === 0) words.push("{count}");
    const text = `${language}: ${words.join(" ")} ${i}`;
    root[screen] ??= {};
    const s = root[screen] as Record<string, Record<string, string>>;
    s[panel] ??= {};
    (s[panel] as Record<string, string>)[label] = text;
  }
  return JSON.stringify(root);
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The schema a store of this code has: every migration's version and text, hashed (any change rebuilds). */
const schemaVersion = (store: StoreKind): string => {
  const list = store === "sqlite" ? SQLITE_MIGRATIONS : postgresMigrations;
  const text = list.map((m) => `${m.version}\u0000${m.sql}`).join("\u0001");
  return `${list.at(-1)?.version ?? 0}-${Bun.hash(text).toString(16)}`;
};

const sameShape = (a: StoreShape, b: StoreShape) => JSON.stringify(a) === JSON.stringify(b);

function current(meta: BuiltStore | null, store: StoreKind, shape: StoreShape): meta is BuiltStore {
  return (
    meta !== null &&
    meta.builder === BUILDER_VERSION &&
    meta.schema === schemaVersion(store) &&
    sameShape(meta.shape, shape)
  );
}

/** Direct access to the store being built, to copy what the first project's imports wrote. */
interface Cloner {
  /** Rows per table. */
  counts(): Promise<Map<string, number>>;
  /** Tables with a project_id column. */
  projectTables(): Promise<Set<string>>;
  /** Copies every project_id row of `from` to each target, ids rewritten with its `n` (see `cloneSql`). */
  clone(from: string, targets: { id: string; n: number }[]): Promise<void>;
  analyze(): Promise<void>;
  close(): Promise<void>;
}

interface Column {
  name: string;
  /** Assigned by the database (SQLite's INTEGER PRIMARY KEY, a Postgres serial or generated column): left out of the copy. */
  generated: boolean;
}

/** Id columns (`id`, `*_id` but the project's and organization's) get the copy's number in their first 8 hex digits. */
const isIdColumn = (name: string) =>
  name === "id" || (name.endsWith("_id") && name !== "project_id" && name !== "org_id");

/**
 * `INSERT … SELECT` of the source project's rows of `table`: `project` is the new project id's
 * expression, `prefix` the 8 hex digits put at the start of every id, `join` what the source rows
 * are crossed with (the targets), `source` the source project id's parameter.
 */
function cloneSql(
  table: string,
  columns: Column[],
  q: { project: string; prefix: string; join: string; source: string; order: string },
) {
  const kept = columns.filter((c) => !c.generated);
  const names = kept.map((c) => `"${c.name}"`).join(", ");
  const values = kept
    .map((c) =>
      c.name === "project_id"
        ? q.project
        : isIdColumn(c.name)
          ? `CASE WHEN length(t."${c.name}") = 36 THEN ${q.prefix} || substr(t."${c.name}", 9) ELSE t."${c.name}" END`
          : `t."${c.name}"`,
    )
    .join(", ");
  const order = [q.order, ...(columns.some((c) => c.name === "seq") ? ["t.seq"] : [])].filter(
    (o) => o !== "",
  );
  return `INSERT INTO "${table}" (${names}) SELECT ${values} FROM "${table}" t${q.join}
    WHERE t.project_id = ${q.source}${order.length > 0 ? ` ORDER BY ${order.join(", ")}` : ""}`;
}

function sqliteCloner(file: string): Cloner {
  const db = new Database(file);
  db.run("PRAGMA busy_timeout = 60000");
  const tables = () =>
    (
      db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
  const columns = (table: string): Column[] =>
    (db.query(`PRAGMA table_info("${table}")`).all() as { name: string; type: string; pk: number }[]).map(
      (c) => ({ name: c.name, generated: c.pk === 1 && c.type.toUpperCase() === "INTEGER" }),
    );
  return {
    async counts() {
      return new Map(
        tables().map((t) => [
          t,
          Number((db.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n),
        ]),
      );
    },
    async projectTables() {
      return new Set(
        tables().filter((t) => t !== "projects" && columns(t).some((c) => c.name === "project_id")),
      );
    },
    async clone(from, targets) {
      const copy = db.transaction(() => {
        for (const target of targets) {
          const hex = target.n.toString(16).padStart(8, "0");
          for (const t of tables()) {
            const cols = columns(t);
            if (t === "projects" || !cols.some((c) => c.name === "project_id")) continue;
            const q = { project: "?2", prefix: `'${hex}'`, join: "", source: "?1", order: "" };
            db.run(cloneSql(t, cols, q), [from, target.id]);
          }
        }
      });
      copy.immediate();
    },
    async analyze() {},
    async close() {
      db.close();
    },
  };
}

function postgresCloner(url: string): Cloner {
  const sql = postgres(url, { onnotice: () => {}, max: 1 });
  const columnsOf = async () => {
    const rows = await sql`
      SELECT table_name, column_name,
             coalesce(column_default LIKE 'nextval(%', false) OR is_generated = 'ALWAYS' AS generated
      FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`;
    const tables = new Map<string, Column[]>();
    for (const r of rows) {
      const list = tables.get(r.table_name as string) ?? [];
      list.push({ name: r.column_name as string, generated: r.generated as boolean });
      tables.set(r.table_name as string, list);
    }
    return tables;
  };
  return {
    async counts() {
      const out = new Map<string, number>();
      for (const t of (await columnsOf()).keys()) {
        const [row] = await sql.unsafe(`SELECT count(*)::int AS n FROM "${t}"`);
        out.set(t, row?.n as number);
      }
      return out;
    },
    async projectTables() {
      const tables = await columnsOf();
      return new Set(
        [...tables]
          .filter(([t, cols]) => t !== "projects" && cols.some((c) => c.name === "project_id"))
          .map(([t]) => t),
      );
    },
    async clone(from, targets) {
      const tables = await columnsOf();
      // One statement per table for every target: 39 projects' rows in one pass over the source's.
      const q = {
        project: "c.id",
        prefix: "lpad(to_hex(c.n), 8, '0')",
        join: " CROSS JOIN unnest($2::text[], $3::int[]) AS c(id, n)",
        source: "$1",
        order: "c.n",
      };
      await sql.begin(async (tx) => {
        for (const [t, cols] of tables) {
          if (t === "projects" || !cols.some((c) => c.name === "project_id")) continue;
          await tx.unsafe(cloneSql(t, cols, q), [
            from,
            targets.map((x) => x.id) as never,
            targets.map((x) => x.n) as never,
          ]);
        }
      });
    },
    async analyze() {
      // What autovacuum would have done by now on a real instance; the copies keep the statistics.
      await sql`ANALYZE`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Fills a fresh store at `url`: one organization and its projects, created through Parlance. The
 * first project is filled by real imports (`push` through the core, one per language, as the job
 * writes them: records, versions, warnings, history entries, activity, the completed job); every
 * other project gets a copy of those rows in SQL with its own ids, which is what the same imports
 * would have written, at a fraction of the time. A table the imports wrote that the copy cannot
 * reach (no project_id) stops the build rather than leave the other projects incomplete.
 */
async function build(url: string, store: StoreKind, shape: StoreShape, log: (m: string) => void) {
  const started = performance.now();
  const opened = await openStore(url, systemClock, (path) => new Database(path, { create: true }));
  const parlance = createParlance({ storage: opened.storage });
  const cloner = store === "sqlite" ? sqliteCloner(url.slice("sqlite:".length)) : postgresCloner(url);
  try {
    const org = await parlance.admin.createOrg("Bench");
    const app = parlance.as(org.id, "scale-builder");
    const projectIds: string[] = [];
    const before = await cloner.counts();
    for (let p = 0; p < shape.projects; p++) {
      const project = await parlance.admin.createProject({
        orgId: org.id,
        name: `scale-${String(p).padStart(2, "0")}`,
        baseLanguage: shape.languages[0] as string,
        languages: shape.languages.slice(1),
      });
      projectIds.push(project.id);
      if (p > 0) continue;
      for (const language of shape.languages) {
        await app.push({ projectId: project.id, language, content: scaleDocument(shape.keys, p, language) });
        await parlance.idle();
      }
      const after = await cloner.counts();
      const reachable = await cloner.projectTables();
      const unreachable = [...after].filter(
        ([t, n]) => n !== (before.get(t) ?? 0) && t !== "projects" && !reachable.has(t),
      );
      if (unreachable.length > 0)
        throw new Error(
          `the imports wrote tables without project_id, which the copy misses: ${unreachable.map(([t]) => t).join(", ")}`,
        );
      log(
        `${shape.name} ${store}: first project imported in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const targets = projectIds.slice(1).map((id, i) => ({ id, n: i + 1 }));
    if (targets.length > 0) {
      const t = performance.now();
      await cloner.clone(projectIds[0] as string, targets);
      log(
        `${shape.name} ${store}: ${targets.length} copies in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    await cloner.analyze();
    const rows = (await parlance.storage.translations.countByOrg(org.id)) as number;
    const expected = shape.projects * shape.keys * shape.languages.length;
    if (rows !== expected) throw new Error(`${shape.name}: built ${rows} rows, expected ${expected}`);
    const meta: BuiltStore = {
      builder: BUILDER_VERSION,
      schema: schemaVersion(store),
      shape,
      orgId: org.id,
      projectIds,
      rows,
      buildSeconds: Math.round((performance.now() - started) / 1000),
      builtAt: new Date().toISOString(),
    };
    log(`${shape.name} ${store}: ${rows} rows built in ${meta.buildSeconds} s`);
    return meta;
  } finally {
    await cloner.close();
    await parlance.close();
    await opened.close();
  }
}

export interface StoreCopy {
  databaseUrl: string;
  meta: BuiltStore;
  /** Drops the copy (the cache stays). */
  drop(): Promise<void>;
}

export interface ScaleCache {
  /** A fresh copy of the store of that shape, built first if the cache lacks it or is stale. */
  copy(store: StoreKind, shape: StoreShape, runDir: string): Promise<StoreCopy>;
  close(): Promise<void>;
}

/**
 * `dir`: the SQLite cache folder; `postgresUrl`: the cluster (its database is only the entry
 * point). `keep` false (the smoke run) builds in the run's folder and a database of its own, dropped
 * at the end, so nothing is cached.
 */
export function openScaleCache(
  dir: string,
  postgresUrl: string,
  keep: boolean,
  log: (m: string) => void,
): ScaleCache {
  const root = postgres(postgresUrl, { onnotice: () => {}, max: 1 });
  const urlOf = (db: string) => {
    const url = new URL(postgresUrl);
    url.pathname = `/${db}`;
    return url.toString();
  };
  const dropped: string[] = [];
  const cacheDb = (shape: StoreShape) =>
    `parlance_bench_${shape.name.replace(/-/g, "_")}${keep ? "" : `_${process.pid}`}`;

  async function sqliteCache(shape: StoreShape): Promise<{ file: string; meta: BuiltStore }> {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${shape.name}.sqlite`);
    const metaFile = join(dir, `${shape.name}.json`);
    const meta = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, "utf8")) as BuiltStore) : null;
    if (existsSync(file) && current(meta, "sqlite", shape)) return { file, meta };
    if (meta) log(`${shape.name} sqlite: cache is stale (built for schema ${meta.schema}); rebuilding`);
    for (const f of [metaFile, file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    log(`${shape.name} sqlite: building the cache in ${file}`);
    const built = await build(`sqlite:${file}`, "sqlite", shape, log);
    // The copies are file copies: the cache must be one file, its WAL folded in.
    const db = new Database(file);
    db.run("PRAGMA busy_timeout = 60000");
    const done = db.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
    db.close();
    if (done.busy !== 0)
      throw new Error(`${file}: the WAL could not be folded in (a connection is still open)`);
    // Written last: an interrupted build leaves no meta, so the next run rebuilds.
    writeFileSync(metaFile, `${JSON.stringify(built, null, 2)}\n`);
    return { file, meta: built };
  }

  async function postgresCache(shape: StoreShape): Promise<{ db: string; meta: BuiltStore }> {
    const db = cacheDb(shape);
    const [row] = await root`
      SELECT shobj_description(oid, 'pg_database') AS meta FROM pg_database WHERE datname = ${db}`;
    const meta = row?.meta ? (JSON.parse(row.meta as string) as BuiltStore) : null;
    if (row && current(meta, "postgres", shape)) return { db, meta };
    if (row) {
      log(`${shape.name} postgres: cache ${db} is stale or unfinished; rebuilding`);
      await root.unsafe(`DROP DATABASE "${db}" WITH (FORCE)`);
    }
    log(`${shape.name} postgres: building the cache in database ${db}`);
    await root.unsafe(`CREATE DATABASE "${db}"`);
    if (!keep) dropped.push(db);
    const built = await build(urlOf(db), "postgres", shape, log);
    // The meta is set last: a database without it is an interrupted build.
    await root.unsafe(`COMMENT ON DATABASE "${db}" IS '${JSON.stringify(built).replace(/'/g, "''")}'`);
    return { db, meta: built };
  }

  return {
    async copy(store, shape, runDir) {
      if (store === "sqlite") {
        const cached = await sqliteCache(shape);
        const file = join(runDir, `${shape.name}.sqlite`);
        copyFileSync(cached.file, file);
        // Written out before measuring: gigabytes of dirty pages flushing meanwhile stall every fsync.
        const fd = openSync(file, "r+");
        fsyncSync(fd);
        closeSync(fd);
        return {
          databaseUrl: `sqlite:${file}`,
          meta: cached.meta,
          async drop() {
            for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
          },
        };
      }
      const cached = await postgresCache(shape);
      const db = `bench_${shape.name.replace(/-/g, "_")}_${process.pid}_${Date.now() % 1e6}`;
      // FILE_COPY: the files are copied as they are, not replayed through the WAL (4 GB).
      await root.unsafe(`CREATE DATABASE "${db}" TEMPLATE "${cached.db}" STRATEGY FILE_COPY`);
      return {
        databaseUrl: urlOf(db),
        meta: cached.meta,
        async drop() {
          await root.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        },
      };
    },
    async close() {
      for (const db of dropped) await root.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      await root.end({ timeout: 5 });
    },
  };
}

/** `.bench-cache/` at the repository's root unless PARLANCE_BENCH_CACHE names another folder. */
export const cacheDir = () => process.env.PARLANCE_BENCH_CACHE ?? join(REPO, ".bench-cache");

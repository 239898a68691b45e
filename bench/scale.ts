/**
 * Cost as the store grows: a 50k push, a 50k pull, the coverage of one project and a small GET on a
 * store of 40 projects × 50,000 keys × 2 languages (4 million records, with their history), each
 * against the same operation on a store holding the measured project alone (built the same way);
 * and the coverage of a 50,000-key project in 10 languages, through the API and the workspace,
 * against the absolute 50 ms. The stores come from bench/scale-store.ts (cached); each runs
 * on a copy with the real server in front of it.
 */

import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createParlance } from "../adapters/create-parlance.ts";
import { systemClock } from "../adapters/system-clock.ts";
import { openStore } from "../server/open-store.ts";
import { ALL_SCOPES, Api, createKeys, pushAndWait, pushBody, timedPull } from "./api.ts";
import type { DocumentSet } from "./data.ts";
import { benchFetch } from "./http.ts";
import {
  COVERAGE_TARGET_MS,
  coverage10Name,
  SCALE_OPS,
  type ScaleOp,
  STORES,
  type StoreKind,
  scaleName,
} from "./names.ts";
import type { Options } from "./options.ts";
import { type ChildServer, startParlanceOn } from "./process.ts";
import { cacheDir, openScaleCache, type StoreCopy, type StoreShape, scaleShapes } from "./scale-store.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";
import { POSTGRES_URL } from "./target.ts";
import { requireWrk, runLoad } from "./wrk.ts";

type Log = (message: string) => void;

/** Below the 10,000-per-hour limit of a key, with room (as bench/get-small.ts). */
const REQUESTS_PER_KEY = 8_000;
/** Keys sized for this rate: above what Parlance answers here on one project (about 50,000 req/s). */
const MAX_RPS = 100_000;

/**
 * Coverage requests per measured run: each answers in about a millisecond from kept counts, so a
 * median of a few moves with one scheduling hiccup (20 samples ranged 0.73–1.74× between runs of the
 * same code); 100 take a fraction of a second.
 */
const COVERAGE_SAMPLES_PER_RUN = 20;

const load1 = () => Math.round((loadavg()[0] ?? 0) * 10) / 10;

interface Running {
  copy: StoreCopy;
  server: ChildServer & { setupToken: string | null };
  api: Api;
  projectId: string;
  freshLanguages: string[];
}

/** One copy of a cached store with the server on it: a key made in process, fresh languages for pushes. */
async function start(copy: StoreCopy, freshCount: number): Promise<Running> {
  const projectId = copy.meta.projectIds[0] as string;
  const freshLanguages = Array.from({ length: freshCount }, (_, i) => `de-x${i + 1}`);
  const opened = await openStore(copy.databaseUrl, systemClock, (path) => new Database(path));
  const parlance = createParlance({ storage: opened.storage });
  let key: string;
  try {
    const created = await parlance.admin.createKey(copy.meta.orgId, {
      name: "bench",
      scopes: ALL_SCOPES,
      rateLimit: 10_000,
    });
    key = created.key;
    for (const language of freshLanguages) await parlance.admin.addLanguage(projectId, language);
  } finally {
    await parlance.close();
    await opened.close();
  }
  const server = await startParlanceOn(copy.databaseUrl);
  const ops = await createKeys(new Api(server.baseUrl, [key]), "ops", 4);
  return { copy, server, api: new Api(server.baseUrl, ops), projectId, freshLanguages };
}

async function stop(r: Running) {
  await r.server.stop();
  await r.copy.drop();
}

/** Times `run` `warmups + runs` times; the first (nothing kept yet) is returned apart. */
async function timed(n: { warmups: number; runs: number }, run: () => Promise<unknown>) {
  const samples: number[] = [];
  let first = 0;
  for (let i = 0; i < n.warmups + n.runs; i++) {
    const start = performance.now();
    await run();
    const ms = since(start);
    if (i === 0) first = ms;
    if (i >= n.warmups) samples.push(ms);
  }
  return { samples, first };
}

async function getJson(api: Api, path: string, headers: Record<string, string> = {}): Promise<void> {
  const res =
    Object.keys(headers).length === 0
      ? await api.fetch("GET", path)
      : await benchFetch(`${api.baseUrl}${path}`, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
}

interface Pair {
  samples: [number[], number[]];
  details: Record<string, number>;
}

/**
 * Every scale operation on both stores, served at once and measured in turns (the order swapped
 * each round), so a change of the machine's load meets both alike; the push, which adds rows, last.
 * Samples of [empty, scale].
 */
async function measure(
  both: [Running, Running],
  options: Options,
  docs: DocumentSet,
  dir: string,
  want: (op: ScaleOp) => boolean,
  label: string,
  log: Log,
): Promise<Partial<Record<ScaleOp, Pair>>> {
  const out: Partial<Record<ScaleOp, Pair>> = {};
  const rounds = async (
    count: number,
    run: (r: Running, side: 0 | 1, round: number) => Promise<number | null>,
  ) => {
    const samples: [number[], number[]] = [[], []];
    for (let i = 0; i < count; i++) {
      for (const side of (i % 2 === 0 ? [0, 1] : [1, 0]) as (0 | 1)[]) {
        const ms = await run(both[side], side, i);
        if (ms !== null) samples[side].push(ms);
      }
    }
    return samples;
  };
  const summary = (name: string, samples: [number[], number[]], unit = "ms") =>
    log(
      `${label} ${name}: empty ${median(samples[0]).toFixed(1)} ${unit}, scale ${median(samples[1]).toFixed(1)} ${unit} (load ${load1()})`,
    );

  if (want("get-small")) {
    requireWrk();
    const settings = { connections: options.connections, threads: options.threads };
    const keysPerRun = Math.max(
      options.connections,
      Math.ceil((MAX_RPS * Math.max(options.loadSeconds, options.loadWarmupSeconds)) / REQUESTS_PER_KEY),
    );
    let files = 0;
    const load = async (r: Running, seconds: number) => {
      const keys = await createKeys(r.api, `load${files}`, keysPerRun, ["translations:read"]);
      const file = join(dir, `keys-${label}-${files++}.txt`);
      writeFileSync(file, `${keys.join("\n")}\n`);
      return runLoad(`${r.server.baseUrl}/api/v1/project?project_id=${r.projectId}`, file, {
        ...settings,
        seconds,
      });
    };
    // The smoke run checks the harness only: one short load each, no warm-up.
    if (!options.smoke) for (const r of both) await load(r, options.loadWarmupSeconds);
    const rps: [number[], number[]] = [[], []];
    let requests = 0;
    let bad = 0;
    const samples = await rounds(options.smoke ? 1 : options.loadRuns, async (r, side) => {
      const res = await load(r, options.loadSeconds);
      if (res.non2xx + res.socketErrors > res.requests * 0.01)
        throw new Error(`${label} small GET: ${res.non2xx} non-2xx, ${res.socketErrors} socket errors`);
      rps[side].push(res.rps);
      requests += res.requests;
      bad += res.non2xx + res.socketErrors;
      return res.p50Us / 1000;
    });
    out["get-small"] = {
      samples,
      details: {
        rps: Math.round(median(rps[1])),
        empty_rps: Math.round(median(rps[0])),
        requests,
        non2xx: bad,
      },
    };
    summary("small GET p50", samples);
  }
  if (want("coverage")) {
    const first: number[] = [];
    const samples = await rounds(
      options.warmups + options.runs * COVERAGE_SAMPLES_PER_RUN,
      async (r, _, i) => {
        const start = performance.now();
        await getJson(r.api, `/api/v1/coverage?project_id=${r.projectId}`);
        const ms = since(start);
        if (i === 0) first.push(Math.round(ms * 10) / 10);
        return i < options.warmups ? null : ms;
      },
    );
    out.coverage = { samples, details: { empty_firstMs: first[0] ?? 0, firstMs: first[1] ?? 0 } };
    summary("coverage", samples);
  }
  if (want("pull-50k")) {
    let bytes = 0;
    const samples = await rounds(options.warmups + options.runs, async (r, _, i) => {
      const pulled = await timedPull(r.api, r.projectId, "fr", "json");
      bytes = pulled.bytes;
      return i < options.warmups ? null : pulled.ms;
    });
    out["pull-50k"] = { samples, details: { bytes } };
    summary("pull json", samples);
  }
  if (want("push-50k")) {
    const content = docs.document();
    const samples = await rounds(both[0].freshLanguages.length, async (r, _, i) => {
      const { ms } = await pushAndWait(r.api, pushBody(r.projectId, r.freshLanguages[i] as string, content));
      return i < options.warmups ? null : ms;
    });
    out["push-50k"] = { samples, details: { bytes: Buffer.byteLength(content) } };
    summary("push 50k new", samples);
  }
  return out;
}

/** Sets up the first owner through the setup link; the session cookie. */
async function signIn(server: ChildServer & { setupToken: string | null }): Promise<string> {
  if (!server.setupToken) throw new Error("the server printed no setup link");
  const res = await fetch(`${server.baseUrl}/api/workspace/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({
      token: server.setupToken,
      email: "bench@example.com",
      name: "Bench",
      password: "a long bench password 42",
    }),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (res.status !== 201 || !cookie)
    throw new Error(`workspace setup answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return cookie;
}

/** Coverage of the 10-language project: kept counts (the figure), and right after a write (details). */
async function coverage10(
  r: Running,
  store: StoreKind,
  options: Options,
  want: (name: string) => boolean,
  log: Log,
): Promise<Figure[]> {
  const cookie = await signIn(r.server);
  const routes: { workspace: boolean; path: string; headers: Record<string, string> }[] = [
    { workspace: false, path: `/api/v1/coverage?project_id=${r.projectId}`, headers: {} },
    { workspace: true, path: `/api/workspace/projects/${r.projectId}/coverage`, headers: { cookie } },
  ];
  const figures: Figure[] = [];
  let write = 0;
  for (const route of routes) {
    const name = coverage10Name(store, route.workspace);
    if (!want(name)) continue;
    const get = () => getJson(r.api, route.path, route.headers);
    const { samples, first } = await timed({ warmups: options.warmups, runs: options.runs * 4 }, get);
    // Right after a write to the project: the counts are counted again.
    const afterWrite: number[] = [];
    for (let i = 0; i < Math.max(2, Math.ceil(options.runs / 2)); i++) {
      const content = JSON.stringify({ bench: { write: `value ${++write}` } });
      await pushAndWait(r.api, pushBody(r.projectId, "fr", content));
      const start = performance.now();
      await get();
      afterWrite.push(since(start));
    }
    const load = load1();
    const figure = makeFigure(name, "ms", samples, [COVERAGE_TARGET_MS], {
      details: {
        firstMs: Math.round(first * 10) / 10,
        afterWriteMs: Math.round(median(afterWrite) * 10) / 10,
        records: r.copy.meta.rows,
        load1: load,
      },
    });
    log(
      `${name}: ${figure.median.toFixed(1)} ms, right after a write ${median(afterWrite).toFixed(0)} ms, first ${first.toFixed(0)} ms (load ${load})`,
    );
    figures.push(figure);
  }
  return figures;
}

export async function benchScale(
  options: Options,
  want: (name: string) => boolean,
  docs: DocumentSet,
  log: Log,
): Promise<Figure[]> {
  const runDir = mkdtempSync(join(tmpdir(), "parlance-bench-scale-"));
  // The smoke run builds tiny stores in its own folder and databases, dropped at the end.
  const cache = openScaleCache(options.smoke ? runDir : cacheDir(), POSTGRES_URL, !options.smoke, log);
  const shapes = scaleShapes(options.smoke);
  const figures: Figure[] = [];
  const running: Running[] = [];
  try {
    for (const store of STORES) {
      const ops = SCALE_OPS.filter((op) => want(scaleName(store, op)));
      if (ops.length > 0) {
        const pair: Running[] = [];
        for (const [label, shape] of [
          ["empty", shapes.empty],
          ["scale", shapes.scale],
        ] as [string, StoreShape][]) {
          const copy = await cache.copy(store, shape, runDir);
          log(`scale ${store} ${label}: ${copy.meta.rows} records in ${copy.meta.shape.projects} projects`);
          const r = await start(copy, options.warmups + options.runs);
          running.push(r);
          pair.push(r);
        }
        const measured = await measure(
          pair as [Running, Running],
          options,
          docs,
          runDir,
          (op) => ops.includes(op),
          `scale ${store}`,
          log,
        );
        for (const r of running.splice(0)) await stop(r);
        for (const op of ops) {
          const m = measured[op];
          if (!m) continue;
          figures.push(
            makeFigure(scaleName(store, op), "ms", m.samples[1], m.samples[0], {
              details: {
                ...m.details,
                records: shapes.scale.projects * shapes.scale.keys * shapes.scale.languages.length,
                load1: load1(),
              },
            }),
          );
        }
      }
      if (want(coverage10Name(store, false)) || want(coverage10Name(store, true))) {
        const copy = await cache.copy(store, shapes.languages10, runDir);
        const r = await start(copy, 0);
        running.push(r);
        figures.push(...(await coverage10(r, store, options, want, log)));
        for (const r of running.splice(0)) await stop(r);
      }
    }
    return figures;
  } finally {
    for (const r of running) await stop(r).catch(() => {});
    await cache.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

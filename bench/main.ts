#!/usr/bin/env bun
/**
 * `bun run bench`: Parlance's hot paths against the raw floor of each, measured in the same run.
 * Method and latest figures: docs/benchmarks.md. Progress goes to stderr; the report to stdout.
 */
import { tmpdir } from "node:os";
import { benchBrowser } from "./browser.ts";
import { benchChecks } from "./checks.ts";
import { DocumentSet } from "./data.ts";
import { benchGetSmall } from "./get-small.ts";
import { benchImportStall } from "./import-stall.ts";
import {
  ALL_FIGURES,
  BROWSER_FIGURES,
  CHECKS,
  FORMATS,
  getName,
  IMPORT_STALL,
  PEAK_RSS,
  PEAK_RSS_4X,
  pull304Name,
  pullName,
  pushName,
  RECORD_FIGURES,
  SCALE_FIGURES,
  STORES,
  type StoreKind,
} from "./names.ts";
import { type Options, parseOptions, USAGE, UsageError, wants } from "./options.ts";
import { benchPull } from "./pull.ts";
import { benchPush, seed } from "./push.ts";
import { AT_ONCE, benchConcurrentPush } from "./push-concurrent.ts";
import { benchRecords } from "./records.ts";
import { jsonReport, textReport } from "./report.ts";
import { benchScale } from "./scale.ts";
import type { Figure } from "./stats.ts";
import { openTarget, type Target } from "./target.ts";

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

let current: Target | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    void (current?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function benchStore(store: StoreKind, options: Options, docs: DocumentSet): Promise<Figure[]> {
  const want = (name: string) => wants(options, name);
  const push = {
    fresh: want(pushName(store, "new")),
    changed: want(pushName(store, "10pct")),
    peakRss: store === "sqlite" && want(PEAK_RSS),
  };
  const concurrent = store === "sqlite" && want(PEAK_RSS_4X);
  const stall = store === "sqlite" && want(IMPORT_STALL);
  const pulls = FORMATS.some((f) => want(pullName(store, f))) || want(pull304Name(store));
  const needsData = push.fresh || push.changed || push.peakRss || concurrent || pulls || stall;
  const verbose = options.verbose ? log : () => {};

  log(`${store}: starting the server on a fresh store`);
  const t = await openTarget(store, options.runs + (concurrent ? AT_ONCE * options.runs : 0));
  current = t;
  try {
    verbose(`${store}: server pid ${t.server.pid} at ${t.server.baseUrl}, store ${t.databaseUrl}`);
    const figures: Figure[] = [];
    if (needsData) {
      const idleKib = await seed(t, docs, log);
      figures.push(...(await benchPush(t, docs, options, push, idleKib, log, verbose)));
      if (concurrent) {
        const languages = t.freshLanguages.slice(options.runs);
        figures.push(await benchConcurrentPush(t, docs, options, languages, idleKib, log));
      }
      figures.push(...(await benchPull(t, options, want, log)));
    }
    if (want(getName(store))) figures.push(await benchGetSmall(t, options, log));
    // Last: its imports rewrite `fr`, which the pulls and the 10 % pushes start from.
    if (stall) figures.push(await benchImportStall(t, docs, options, log));
    return figures;
  } catch (e) {
    log(`${store} failed; the server's last words:\n${t.server.stderr().slice(-4000)}`);
    throw e;
  } finally {
    current = null;
    await t.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  // The 12 MB documents only when a store figure needs them (checks-50k alone does not).
  let docs: DocumentSet | null = null;
  const documents = (): DocumentSet => {
    if (docs) return docs;
    docs = new DocumentSet(options.rows);
    log(
      `${options.rows} rows (${(Buffer.byteLength(docs.document()) / 1e6).toFixed(1)} MB), ${options.runs} runs, ` +
        `load ${options.loadRuns} × ${options.loadSeconds} s × ${options.connections} connections`,
    );
    return docs;
  };
  const figures: Figure[] = [];
  for (const store of STORES) {
    const names = ALL_FIGURES.filter(
      (n) =>
        !(RECORD_FIGURES as readonly string[]).includes(n) &&
        !(BROWSER_FIGURES as readonly string[]).includes(n) &&
        !SCALE_FIGURES.includes(n) &&
        (n.includes(`-${store}`) || (store === "sqlite" && (n === PEAK_RSS || n === PEAK_RSS_4X))),
    );
    if (!names.some((n) => wants(options, n))) continue;
    figures.push(...(await benchStore(store, options, documents())));
  }
  if (RECORD_FIGURES.some((n) => wants(options, n))) {
    log("records: browse and edit in process on SQLite and Postgres");
    figures.push(...(await benchRecords(options, (n) => wants(options, n), tmpdir(), log)));
  }
  if (BROWSER_FIGURES.some((n) => wants(options, n))) {
    log("browser: the workspace in Chromium");
    figures.push(
      ...(await benchBrowser(options, (n) => wants(options, n), log, options.verbose ? log : () => {})),
    );
  }
  if (SCALE_FIGURES.some((n) => wants(options, n))) {
    log("scale: the same operations on a store of 4 million rows and on one of the measured project alone");
    figures.push(...(await benchScale(options, (n) => wants(options, n), documents(), log)));
  }
  if (wants(options, CHECKS)) {
    log("checks: timing checkTranslation in process");
    figures.push(benchChecks(options, log));
  }
  // Report order is the order, whatever order they were measured in.
  figures.sort((a, b) => ALL_FIGURES.indexOf(a.name) - ALL_FIGURES.indexOf(b.name));
  process.stdout.write(`${options.json ? jsonReport(figures) : textReport(figures)}\n`);
  const failed = figures.filter((f) => f.failed);
  for (const f of failed) log(`${f.name} FAILED: ${f.failed}`);
  return failed.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError && e.message === "") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (e instanceof UsageError) {
      process.stderr.write(`bench: ${e.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    log(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);

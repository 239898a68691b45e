/**
 * get-small-p99-during-import-sqlite: the p99 latency of small GETs (the get-small request) under
 * wrk while 50,000-row imports run back to back, each changing every value of `fr`. The target is
 * absolute (issue 13: ≤ 50 ms), so, as for the records figures, the floor is the target. The same
 * load without imports, measured first, is in the details (`idleP99Ms`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createKeys, pushAndWait, pushBody } from "./api.ts";
import type { DocumentSet } from "./data.ts";
import { IMPORT_STALL, IMPORT_STALL_TARGET_MS } from "./names.ts";
import type { Options } from "./options.ts";
import { type Figure, makeFigure, median } from "./stats.ts";
import type { Target } from "./target.ts";
import { type LoadResult, requireWrk, runLoad } from "./wrk.ts";

/** A steady load that leaves the server room: latency, not throughput, is measured. */
const CONNECTIONS = 16;
const THREADS = 2;
const REQUESTS_PER_KEY = 8_000;
const MAX_BAD_SHARE = 0.01;
/** wrk's --timeout: a request unanswered this long is a stall of at least this long. */
const TIMEOUT_MS = 5_000;

/**
 * The run's p99 in ms. wrk leaves timed-out requests out of its percentiles, so when more than 1 %
 * of the requests timed out, the p99 is at least the timeout.
 */
const p99Ms = (r: LoadResult) =>
  r.timeouts / Math.max(1, r.requests + r.timeouts) > 0.01
    ? Math.max(TIMEOUT_MS, r.p99Us / 1000)
    : r.p99Us / 1000;

export async function benchImportStall(
  t: Target,
  docs: DocumentSet,
  options: Options,
  log: (message: string) => void,
): Promise<Figure> {
  requireWrk();
  const url = `${t.server.baseUrl}/api/v1/project?project_id=${t.projectId}`;
  let files = 0;
  const keysFile = async (count: number) => {
    const n = files++;
    const keys = await createKeys(t.api, `stall${n}`, count, ["translations:read"]);
    const file = join(t.dir, `stall-keys-${n}.txt`);
    writeFileSync(file, `${keys.join("\n")}\n`);
    return file;
  };
  const settings = { connections: CONNECTIONS, threads: THREADS };
  const warm = await runLoad(url, await keysFile(CONNECTIONS), {
    ...settings,
    seconds: options.loadWarmupSeconds,
  });
  const keysPerRun = Math.max(
    CONNECTIONS,
    Math.ceil((warm.rps * 2 * Math.max(options.loadSeconds, 1)) / REQUESTS_PER_KEY),
  );
  const run = { ...settings, seconds: options.loadSeconds };
  const idle = await runLoad(url, await keysFile(keysPerRun), run);
  log(`${IMPORT_STALL} without imports: p99 ${(idle.p99Us / 1000).toFixed(1)} ms`);

  // Two documents whose every value differs from the other's: each import rewrites all rows.
  const documents = [501, 502].map((rev) =>
    pushBody(
      t.projectId,
      "fr",
      docs.document(() => rev),
    ),
  );
  const loadFiles: string[] = [];
  for (let i = 0; i < options.loadRuns; i++) loadFiles.push(await keysFile(keysPerRun));
  let importing = true;
  const importMs: number[] = [];
  const importer = (async () => {
    for (let i = 0; importing; i++) importMs.push((await pushAndWait(t.api, documents[i % 2] as string)).ms);
  })();
  const loaded: LoadResult[] = [];
  try {
    for (const [i, file] of loadFiles.entries()) {
      loaded.push(await runLoad(url, file, run));
      const r = loaded.at(-1) as LoadResult;
      log(
        `${IMPORT_STALL} run ${i + 1}: p99 ${p99Ms(r).toFixed(1)} ms (${r.timeouts} timed out), p50 ${(r.p50Us / 1000).toFixed(2)} ms, ` +
          `${r.rps.toFixed(0)} req/s, ${importMs.length} imports done so far`,
      );
    }
  } finally {
    importing = false;
    await importer;
  }
  const requests = loaded.reduce((n, r) => n + r.requests, 0);
  // Timeouts are the stall being measured (in the p99 above); other errors make it untrustworthy.
  const bad = loaded.reduce((n, r) => n + r.non2xx + r.socketErrors - r.timeouts, 0);
  const timeouts = loaded.reduce((n, r) => n + r.timeouts, 0);
  return makeFigure(IMPORT_STALL, "ms", loaded.map(p99Ms), [IMPORT_STALL_TARGET_MS], {
    details: {
      idleP99Ms: idle.p99Us / 1000,
      p50Ms: median(loaded.map((r) => r.p50Us / 1000)),
      requests,
      non2xx: bad,
      timeouts,
      imports: importMs.length,
      importMedianMs: importMs.length > 0 ? median(importMs) : 0,
    },
    failed:
      bad / Math.max(1, requests) > MAX_BAD_SHARE
        ? `${bad} non-2xx answers or socket errors other than timeouts in ${requests} requests (over 1 %)`
        : undefined,
  });
}

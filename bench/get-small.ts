/**
 * get-small: GET /api/v1/project?project_id=… (auth + rate limit + one lookup) under wrk, against
 * an Elysia hello-world process loaded the same way in the same run, runs alternating between them.
 * Every run gets fresh keys, enough that none reaches its 10,000 requests per hour: a 429 is cheaper
 * than a real answer, so more than 1 % of non-2xx answers fails the figure.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createKeys } from "./api.ts";
import { benchFetch } from "./http.ts";
import { getName } from "./names.ts";
import type { Options } from "./options.ts";
import { type ChildServer, startHello } from "./process.ts";
import { type Figure, makeFigure, median } from "./stats.ts";
import type { Target } from "./target.ts";
import { type LoadResult, requireWrk, runLoad } from "./wrk.ts";

const MAX_BAD_SHARE = 0.01;
/** Below the 10,000-per-hour limit, with room for a run longer than asked. */
const REQUESTS_PER_KEY = 8_000;

export async function benchGetSmall(
  t: Target,
  options: Options,
  log: (message: string) => void,
): Promise<Figure> {
  requireWrk();
  const name = getName(t.store);
  const path = `/api/v1/project?project_id=${t.projectId}`;
  const settings = { connections: options.connections, threads: options.threads };
  let hello: ChildServer | null = null;
  try {
    hello = await startHello();
    const helloUrl = `${hello.baseUrl}${path}`;
    const parlanceUrl = `${t.server.baseUrl}${path}`;
    let files = 0;
    const keysFile = async (count: number) => {
      const keys = await createKeys(t.api, `load${files}`, count, ["translations:read"]);
      const file = join(t.dir, `keys-${files++}.txt`);
      writeFileSync(file, `${keys.join("\n")}\n`);
      return { file, first: keys[0] as string };
    };

    // What the server answers is checked once: a 200 with the project, not a cheaper error.
    const probe = await keysFile(options.connections);
    const res = await benchFetch(parlanceUrl, { headers: { authorization: `Bearer ${probe.first}` } });
    const body = (await res.json()) as { data?: { id?: string } };
    if (res.status !== 200 || body.data?.id !== t.projectId)
      throw new Error(`GET ${path} answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`);

    const warmup = { ...settings, seconds: options.loadWarmupSeconds };
    const helloWarm = await runLoad(helloUrl, probe.file, warmup);
    // Sized on the ceiling: Parlance cannot answer faster than hello-world.
    const keysPerRun = Math.max(
      options.connections,
      Math.ceil(
        (helloWarm.rps * 1.5 * Math.max(options.loadSeconds, options.loadWarmupSeconds)) / REQUESTS_PER_KEY,
      ),
    );
    await runLoad(parlanceUrl, (await keysFile(keysPerRun)).file, warmup);

    const ours: LoadResult[] = [];
    const ceiling: LoadResult[] = [];
    const run = { ...settings, seconds: options.loadSeconds };
    for (let i = 0; i < options.loadRuns; i++) {
      const { file } = await keysFile(keysPerRun);
      const pair = async (first: boolean) => {
        if (first) ours.push(await runLoad(parlanceUrl, file, run));
        else ceiling.push(await runLoad(helloUrl, file, run));
      };
      // Alternating the order cancels a drift of the machine between the two.
      await pair(i % 2 === 0);
      await pair(i % 2 !== 0);
      const o = ours.at(-1) as LoadResult;
      const c = ceiling.at(-1) as LoadResult;
      log(
        `${name} run ${i + 1}: ${o.rps.toFixed(0)} req/s (non-2xx ${o.non2xx}), hello-world ${c.rps.toFixed(0)} req/s`,
      );
    }
    const requests = ours.reduce((n, r) => n + r.requests, 0);
    const non2xx = ours.reduce((n, r) => n + r.non2xx, 0);
    const socketErrors = ours.reduce((n, r) => n + r.socketErrors, 0);
    const bad = (non2xx + socketErrors) / Math.max(1, requests);
    return makeFigure(
      name,
      "req/s",
      ours.map((r) => r.rps),
      ceiling.map((r) => r.rps),
      {
        details: {
          requests,
          non2xx,
          socketErrors,
          keysPerRun,
          p50Us: median(ours.map((r) => r.p50Us)),
          p99Us: median(ours.map((r) => r.p99Us)),
          ceilingNon2xx: ceiling.reduce((n, r) => n + r.non2xx + r.socketErrors, 0),
        },
        failed:
          bad > MAX_BAD_SHARE
            ? `${non2xx} non-2xx and ${socketErrors} socket errors in ${requests} requests (over 1 %)`
            : undefined,
      },
    );
  } finally {
    await hello?.stop();
  }
}

/**
 * The workspace in Chromium, on a project of `rows` keys (50,000) on SQLite:
 *
 * - browser-first-rows-50k: navigation to the editor → its first rows drawn, read in the page
 *   (performance.now() counts from the navigation's start).
 * - browser-save-p50: one save (PUT of a record) as the page sees it, timed in the page around
 *   fetch, median of 30.
 *
 * The targets are absolute (≤ 1 s, ≤ 50 ms p50), so, as for the records figures, each
 * figure's floor is its target and the ratio must stay ≤ 1. The same request sent by this process
 * (no browser) is in the details (`apiMs`): the part of the time that is not the page's.
 */
import type { Page } from "playwright-core";
import { launchBrowser, openContext } from "../test/support/browser.ts";
import { createProject, push, setUpOwner, startWorkspaceServer } from "../test/support/workspace-e2e.ts";
import { BROWSER_FIRST_ROWS, BROWSER_SAVE, BROWSER_TARGET_MS } from "./names.ts";
import type { Options } from "./options.ts";
import { SERVER_FLAGS } from "./process.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";

type Log = (message: string) => void;

/** Saves timed per run (the smoke run: a few, to check the harness). */
const SAVES = 30;

/**
 * With --verbose: each workspace request the page makes, with its time as the page saw it, so a
 * request that holds the server shows by name (reported when the run ends, or after 10 s).
 */
function watchRequests(page: Page, verbose: Log) {
  const started = new Map<string, number>();
  const done: string[] = [];
  const t0 = performance.now();
  page.on("request", (r) => started.set(r.url(), performance.now()));
  page.on("requestfinished", (r) => {
    const at = started.get(r.url()) ?? t0;
    done.push(`${(at - t0).toFixed(0)}+${(performance.now() - at).toFixed(0)} ms ${r.method()} ${r.url()}`);
    started.delete(r.url());
  });
  const pending = () =>
    [...started].map(([url, at]) => `pending ${(performance.now() - at).toFixed(0)} ms: ${url}`);
  const timer = setInterval(() => {
    if (started.size > 0) verbose(`browser: still waiting\n  ${pending().join("\n  ")}`);
  }, 10_000);
  return {
    report(label: string) {
      clearInterval(timer);
      verbose(`browser: ${label}\n  ${[...done, ...pending()].join("\n  ")}`);
    },
  };
}

export async function benchBrowser(
  options: Options,
  want: (name: string) => boolean,
  log: Log,
  verbose: Log = () => {},
): Promise<Figure[]> {
  const saves = options.smoke ? 5 : SAVES;
  const s = await startWorkspaceServer("sqlite", SERVER_FLAGS);
  verbose(`browser: server pid ${s.server.proc.pid} at ${s.origin}, store ${s.env.PARLANCE_DATABASE_URL}`);
  // Stopped with the bench: a signal must not leave the server running (kill is sent at once).
  const stopServer = () => void s.stop();
  process.once("SIGINT", stopServer);
  process.once("SIGTERM", stopServer);
  const browser = await launchBrowser();
  try {
    const project = await createProject(s, "Bench", "en", ["fr"]);
    const en: Record<string, string> = {};
    const fr: Record<string, string> = {};
    for (let i = 0; i < options.rows; i++) {
      const key = `screen${Math.floor(i / 50)}.item${String(i).padStart(6, "0")}`;
      en[key] = `Hello {name}, item ${i} of your list`;
      if (i % 2 === 0) fr[key] = `Bonjour {name}, élément ${i} de votre liste`;
    }
    log(`browser: pushing ${options.rows} keys`);
    await push(s, project.id, "en", en);
    await push(s, project.id, "fr", fr);
    const watched = await openContext(browser, s.origin);
    await setUpOwner(watched.page, s);
    log("browser: owner set up, timing");
    const cookie = (await watched.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const figures: Figure[] = [];
    const recordsUrl = `${s.origin}/api/workspace/projects/${project.id}/records`;

    if (want(BROWSER_FIRST_ROWS)) {
      const samples: number[] = [];
      const floors: number[] = [];
      const url = `${s.origin}/projects/${project.id}/editor?languages=fr&missing=false`;
      for (let i = 0; i < options.warmups + options.runs; i++) {
        const page = await watched.context.newPage();
        const requests = watchRequests(page, verbose);
        await page.goto(url, { waitUntil: "commit" });
        await page.waitForSelector('[data-cell="0:0"]');
        // The page marks the moment its first rows are in the DOM (ui/src/editor/editor-grid.tsx):
        // reading performance.now() after the wait would add the round trips of the driver.
        const ms = (await page.evaluate(
          () => performance.getEntriesByName("parlance:first-rows")[0]?.startTime ?? performance.now(),
        )) as number;
        await page.close();
        requests.report(`first rows run ${i}`);
        // The closed page's background pages may still be on the server: each navigation is timed
        // against a server that has answered them (as a person's first visit finds it).
        await (await fetch(`${s.origin}/healthz`)).arrayBuffer();
        const start = performance.now();
        const res = await fetch(`${recordsUrl}?languages=fr&language=fr&limit=500`, { headers: { cookie } });
        await res.arrayBuffer();
        const floor = since(start);
        if (i < options.warmups) continue;
        samples.push(ms);
        floors.push(floor);
      }
      log(`browser: first rows ${median(samples).toFixed(0)} ms`);
      figures.push(
        makeFigure(BROWSER_FIRST_ROWS, "ms", samples, [BROWSER_TARGET_MS[BROWSER_FIRST_ROWS] as number], {
          details: { keys: options.rows, apiMs: Math.round(median(floors) * 10) / 10 },
        }),
      );
    }

    if (want(BROWSER_SAVE)) {
      const page = watched.page;
      await page.goto(`${s.origin}/`);
      const key = Object.keys(en)[1] as string;
      const inPage = (await page.evaluate(
        async ({ url, key, saves }) => {
          const times: number[] = [];
          const read = await (
            await fetch(`${url}?languages=fr&language=fr&limit=1&q=${encodeURIComponent(key)}`)
          ).json();
          let version = read.data[0]?.records.fr?.version ?? 0;
          for (let i = 0; i < saves; i++) {
            const start = performance.now();
            const res = await fetch(url, {
              method: "PUT",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ key, language: "fr", value: `Valeur ${i}`, version }),
            });
            const body = await res.json();
            times.push(performance.now() - start);
            version = body.data.version;
          }
          return { times, version };
        },
        { url: recordsUrl, key, saves: options.warmups + saves },
      )) as { times: number[]; version: number };
      let version = inPage.version;
      const floors: number[] = [];
      for (let i = 0; i < saves; i++) {
        const start = performance.now();
        const res = await fetch(recordsUrl, {
          method: "PUT",
          headers: { cookie, origin: s.origin, "content-type": "application/json" },
          body: JSON.stringify({ key, language: "fr", value: `Floor ${i}`, version }),
        });
        version = ((await res.json()) as { data: { version: number } }).data.version;
        floors.push(since(start));
      }
      const samples = inPage.times.slice(options.warmups);
      log(`browser: save ${median(samples).toFixed(1)} ms`);
      figures.push(
        makeFigure(BROWSER_SAVE, "ms", samples, [BROWSER_TARGET_MS[BROWSER_SAVE] as number], {
          details: { saves, apiMs: Math.round(median(floors) * 10) / 10 },
        }),
      );
    }
    return figures;
  } finally {
    process.off("SIGINT", stopServer);
    process.off("SIGTERM", stopServer);
    await browser.close();
    await s.stop();
  }
}

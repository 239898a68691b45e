/**
 * Chromium for the workspace tests: Debian's /usr/bin/chromium driven by playwright-core (never a
 * downloaded browser). One browser per test file; each test opens its own context. A context
 * records every problem a person would not see but should not happen: a console error, a script
 * error, a failed load, and any request that leaves the server's origin (blocked and recorded).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ARGS });

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Console errors and warnings, page errors, failed loads; expected ones are filtered out. */
  problems: string[];
  /** URLs of requests to another origin (each was blocked). */
  offOrigin: string[];
}

/**
 * The one console error a healthy page shows: Chromium logs every 4xx a fetch receives, and the
 * page asks /me to learn whether anyone is signed in (401 when not); conflicts (412) and refused
 * input (4xx) are part of the flows the tests drive too.
 */
const expectedLoadError = (text: string) =>
  /^Failed to load resource: the server responded with a status of 4\d\d/.test(text);

export async function openContext(
  browser: Browser,
  origin: string,
  options: { colorScheme?: "light" | "dark"; viewport?: { width: number; height: number } } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? "light",
    viewport: options.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const offOrigin: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    offOrigin.push(url);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && !expectedLoadError(m.text()))
      problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => {
    // A download the test saves is reported as an aborted navigation; it is not a failure.
    if (r.failure()?.errorText !== "net::ERR_ABORTED")
      problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  return { context, page, problems, offOrigin };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the page's CSP (no inline script) does not apply to.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

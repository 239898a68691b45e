import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchBrowser, openContext, seriousViolations } from "../support/browser.ts";
import { type ServerProcess, startServerProcess } from "../support/process.ts";

/**
 * Issue 12: the workspace loads from Parlance alone. A real server process, Debian's Chromium:
 * no console error, no request off the server, no serious accessibility violation.
 */
let server: ServerProcess;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServerProcess({ PARLANCE_DATABASE_URL: "memory:" }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  server?.proc.kill("SIGTERM");
  await server?.exited;
});

test("a signed-out visit lands on the sign-in page, with nothing fetched from elsewhere", async () => {
  const origin = new URL(server.baseUrl).origin;
  const { context, page, problems, offOrigin } = await openContext(browser, origin);
  const response = await page.goto(`${origin}/projects/abc/editor?missing=true`);
  expect(response?.status()).toBe(200);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  // Sent back where they were going after signing in.
  expect(new URL(page.url()).pathname).toBe("/signin");
  expect(new URL(page.url()).searchParams.get("next")).toBe("/projects/abc/editor?missing=true");
  expect(await page.getByLabel("Email").isVisible()).toBe(true);
  expect(await page.getByLabel("Password").isVisible()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);

  // The one-time link pages read their token from the fragment and take it out of the address bar.
  await page.goto(`${origin}/reset#some-token`);
  await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
  expect(page.url()).toBe(`${origin}/reset`);
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`${origin}/setup`);
  await page.getByRole("heading", { name: "Set up Parlance" }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  expect(offOrigin).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
}, 60_000);

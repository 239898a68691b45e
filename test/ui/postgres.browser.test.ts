import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { postgresReachable } from "../storage/postgres-setup.ts";
import { launchBrowser, openContext, seriousViolations } from "../support/browser.ts";
import {
  createProject,
  OWNER,
  push,
  setUpOwner,
  signIn,
  startWorkspaceServer,
  type WorkspaceServer,
} from "../support/workspace-e2e.ts";

/**
 * Issue 12's key flows on Postgres: the first owner from the printed link, editing with the
 * keyboard, and two people saving one record (the second sees the conflict dialog).
 */
if (await postgresReachable()) {
  let s: WorkspaceServer;
  let browser: Browser;
  beforeAll(async () => {
    [s, browser] = await Promise.all([startWorkspaceServer("postgres"), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const cell = (page: Page, key: string, language: string) =>
    page.locator(`[data-key="${key}"][data-language="${language}"]`);

  test("setup, keyboard editing and the conflict dialog on Postgres", async () => {
    const project = await createProject(s, "Pg", "en", ["fr"]);
    await push(s, project.id, "en", { greeting: "Hello", title: "Welcome" });
    const a = await openContext(browser, s.origin);
    await setUpOwner(a.page, s);
    await a.page.goto(`${s.origin}/projects/${project.id}/editor`);
    await cell(a.page, "greeting", "fr").waitFor();
    await a.page.keyboard.press("Enter");
    await a.page.keyboard.type("Bonjour");
    await a.page.keyboard.press("Control+Enter");
    await a.page.getByRole("textbox", { name: "Translation of title in fr" }).waitFor();
    await a.page.keyboard.type("Bienvenue");
    await a.page.keyboard.press("Control+Enter");
    await a.page.waitForFunction(() => !document.querySelector(".cell-editor"));
    const pulled = await fetch(`${s.origin}/api/v1/pull?project_id=${project.id}&language=fr`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(await pulled.json()).toEqual({ greeting: "Bonjour", title: "Bienvenue" });

    const b = await openContext(browser, s.origin);
    await signIn(b.page, s, OWNER.email, OWNER.password);
    for (const page of [a.page, b.page]) {
      await page.goto(`${s.origin}/projects/${project.id}/editor?languages=fr&missing=false`);
      await cell(page, "title", "fr").click();
      await page.keyboard.press("Enter");
    }
    await a.page.keyboard.type(" A");
    await a.page.keyboard.press("Control+Enter");
    await a.page.waitForFunction(() => !document.querySelector('[data-key="title"] .cell-editor'));
    await b.page.keyboard.type(" B");
    await b.page.keyboard.press("Control+Enter");
    const dialog = b.page.getByRole("dialog", { name: "Someone else changed this string" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Bienvenue A");
    expect(await seriousViolations(b.page)).toEqual([]);
    await dialog.getByRole("button", { name: "Take theirs" }).click();
    await b.page.waitForFunction(
      () =>
        document.querySelector('[data-key="title"][data-language="fr"] .value')?.textContent ===
        "Bienvenue A",
    );
    for (const w of [a, b]) {
      expect(w.problems).toEqual([]);
      expect(w.offOrigin).toEqual([]);
      await w.context.close();
    }
  }, 90_000);
}

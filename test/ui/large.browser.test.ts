import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, openContext, seriousViolations, type Watched } from "../support/browser.ts";
import {
  createProject,
  type ProjectView,
  push,
  setUpOwner,
  startWorkspaceServer,
  type WorkspaceServer,
} from "../support/workspace-e2e.ts";

/**
 * Issue 12: a 50,000-key project opens and scrolls smoothly. The list is virtual (the DOM holds a
 * bounded number of rows wherever the person scrolls), the last key can be reached and seen, the
 * keyboard still drives it, and "next missing" (N) finds a string the page has not loaded yet by
 * asking the server. Seeded with one push per language (not timed here; `bun run bench` times it).
 */
const KEYS = 50_000;
const keyOf = (i: number) =>
  `screen${String(Math.floor(i / 50)).padStart(4, "0")}.item${String(i).padStart(5, "0")}`;
/** Every French string is there except these two: one far past the first pages, and the last key. */
const FAR = 30_000;
const LAST = KEYS - 1;
const MISSING = [FAR, LAST];
/** Rows the DOM may hold: what a 800 px viewport shows plus the virtual list's overscan, with room. */
const MAX_DOM_ROWS = 60;

let s: WorkspaceServer;
let browser: Browser;
let owner: Watched;
let project: ProjectView;

beforeAll(async () => {
  [s, browser] = await Promise.all([startWorkspaceServer("sqlite"), launchBrowser()]);
  project = await createProject(s, "Large", "en", ["fr"]);
  const en: Record<string, string> = {};
  const fr: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) {
    en[keyOf(i)] = `Item ${i} of {count}`;
    if (!MISSING.includes(i)) fr[keyOf(i)] = `Élément ${i} sur {count}`;
  }
  await push(s, project.id, "en", en);
  await push(s, project.id, "fr", fr);
  owner = await openContext(browser, s.origin);
  await setUpOwner(owner.page, s);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

const domRows = (page: Page) => page.locator('.grid-body [role="row"]').count();
/** The key of the focused cell, once the focus is on one. */
const focusedKey = (page: Page) =>
  page
    .waitForFunction(() => document.activeElement?.getAttribute("data-key") ?? false)
    .then((h) => h.jsonValue() as Promise<string>);
/** Whether the cell of `key` is inside the scrolling viewport (not only in the DOM). */
const inView = (page: Page, key: string) =>
  page.evaluate((key) => {
    const cell = document.querySelector(`[data-key="${key}"]`);
    const scroller = document.querySelector(".grid-scroll");
    if (!cell || !scroller) return false;
    const c = cell.getBoundingClientRect();
    const v = scroller.getBoundingClientRect();
    return c.top >= v.top - 1 && c.bottom <= v.bottom + 1;
  }, key);

test("a 50,000-key project opens, scrolls with a bounded DOM, and reaches its last key by keyboard", async () => {
  const { page } = owner;
  await page.goto(`${s.origin}/projects/${project.id}/editor?languages=fr&missing=false`);
  await page.locator(`[data-key="${keyOf(0)}"][data-language="fr"]`).waitFor();
  await page.getByText(`${KEYS} strings`).waitFor();
  expect(await page.getByRole("grid").getAttribute("aria-rowcount")).toBe(String(KEYS + 1));
  expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS);
  expect(await focusedKey(page)).toBe(keyOf(0));

  // N: the first missing string is far past the rows loaded so far; the server names it.
  const loaded = Number(
    /\((\d+) loaded\)/.exec(
      (await page
        .getByText(/strings/)
        .first()
        .textContent()) ?? "",
    )?.[1],
  );
  expect(loaded).toBeLessThan(FAR);
  await page.keyboard.press("n");
  expect(await nextFocus(page, keyOf(0))).toBe(keyOf(FAR));
  expect(await inView(page, keyOf(FAR))).toBe(true);
  expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS);

  // The keyboard still works there: move, edit, save.
  await page.keyboard.press("ArrowDown");
  expect(await nextFocus(page, keyOf(FAR))).toBe(keyOf(FAR + 1));
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Élément trente mille sur {count}");
  await page.keyboard.press("Control+Enter");
  await page.getByRole("textbox", { name: `Translation of ${keyOf(FAR + 1)} in fr` }).waitFor();
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector(".cell-editor, .chip.saving"));

  // N again: the last key, which becomes visible.
  await page.keyboard.press("n");
  expect(await nextFocus(page, keyOf(FAR + 1))).toBe(keyOf(LAST));
  expect(await inView(page, keyOf(LAST))).toBe(true);
  expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS);
  await page.keyboard.press("n");
  await page.getByText("No missing string in fr below this one").waitFor();

  // Back to the top, and scrolling with the wheel: the DOM stays bounded all the way down.
  await page.keyboard.press("Control+Home");
  expect(await nextFocus(page, keyOf(LAST))).toBe(keyOf(0));
  await page.locator(".grid-scroll").hover();
  let most = 0;
  for (let i = 0; i < 20; i++) {
    await page.mouse.wheel(0, 2_000);
    most = Math.max(most, await domRows(page));
  }
  expect(most).toBeLessThanOrEqual(MAX_DOM_ROWS);
  expect(await inView(page, keyOf(0))).toBe(false);
  // The active cell kept the focus while scrolled away: Ctrl+End goes to the last key, in view.
  expect(await focusedKey(page)).toBe(keyOf(0));
  await page.keyboard.press("Control+End");
  expect(await nextFocus(page, keyOf(0))).toBe(keyOf(LAST));
  expect(await inView(page, keyOf(LAST))).toBe(true);
  expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS);
  expect(await seriousViolations(page)).toEqual([]);

  const fr = (await (
    await fetch(`${s.origin}/api/v1/pull?project_id=${project.id}&language=fr`, {
      headers: { authorization: `Bearer ${s.key}` },
    })
  ).json()) as Record<string, string>;
  expect(fr[keyOf(FAR)]).toBe("Élément trente mille sur {count}");
  expect(Object.keys(fr)).toHaveLength(LAST);
  expect(owner.problems).toEqual([]);
}, 300_000);

/**
 * The key of the focused cell once the focus has left `from`'s cell. Generous: reaching a row
 * means loading the pages up to it, on a machine the CI shares.
 */
const nextFocus = (page: Page, from: string) =>
  page
    .waitForFunction(
      (from) => {
        const key = document.activeElement?.getAttribute("data-key");
        return key && key !== from ? key : false;
      },
      from,
      { timeout: 120_000 },
    )
    .then((h) => h.jsonValue() as Promise<string>);

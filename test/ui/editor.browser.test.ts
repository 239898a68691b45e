import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, openContext, seriousViolations, type Watched } from "../support/browser.ts";
import {
  createProject,
  OWNER,
  type ProjectView,
  push,
  setUpOwner,
  signIn,
  startWorkspaceServer,
  type WorkspaceServer,
} from "../support/workspace-e2e.ts";

/**
 * Issue 12, the editor: editing and saving with the keyboard only, filters kept in a shareable
 * URL, the conflict dialog between two people, history and revert, bulk approval, live warnings.
 */
let s: WorkspaceServer;
let browser: Browser;
let owner: Watched;
let project: ProjectView;
const EN = {
  "a.greeting": "Hello {name}",
  "b.title": "Welcome",
  "c.back": "Back",
  "d.save": "Save",
  "e.rtl": "Yes",
};
beforeAll(async () => {
  [s, browser] = await Promise.all([startWorkspaceServer("sqlite"), launchBrowser()]);
  project = await createProject(s, "Shop", "en", ["fr", "ar"]);
  await push(s, project.id, "en", EN);
  await push(s, project.id, "fr", { "b.title": "Bienvenue", "d.save": "Enregistrer" }, "pending");
  owner = await openContext(browser, s.origin);
  await setUpOwner(owner.page, s);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

const cell = (page: Page, key: string, language: string) =>
  page.locator(`[data-key="${key}"][data-language="${language}"]`);
/** Waits until the element matching `selector` has the focus (an assertion: it times out if never). */
const focused = (page: Page, selector: string) =>
  page.waitForFunction((s) => document.activeElement?.matches(s) === true, selector);
const editorUrl = (query: string) => `${s.origin}/projects/${project.id}/editor?${query}`;

async function pulled(projectId: string, language: string): Promise<Record<string, string>>;
async function pulled(language: string): Promise<Record<string, string>>;
async function pulled(a: string, b?: string): Promise<Record<string, string>> {
  const [projectId, language] = b === undefined ? [project.id, a] : [a, b];
  const res = await fetch(`${s.origin}/api/v1/pull?project_id=${projectId}&language=${language}`, {
    headers: { authorization: `Bearer ${s.key}` },
  });
  return (await res.json()) as Record<string, string>;
}

test("the editor opens on what is missing and saves with the keyboard alone", async () => {
  const { page } = owner;
  await page.goto(`${s.origin}/projects/${project.id}/editor`);
  // "Only untranslated" by default, and the URL says so.
  await cell(page, "a.greeting", "fr").waitFor();
  expect(new URL(page.url()).searchParams.get("missing")).toBe("true");
  expect(await page.locator('.grid-body [role="row"]').count()).toBe(3);
  expect(await seriousViolations(page)).toEqual([]);
  // The first cell has the focus: Enter opens it, typing shows live warnings, Ctrl+Enter saves and opens the next.
  await page.keyboard.press("Enter");
  // A missing string just opened warns of nothing yet (not even that it is empty).
  await page.getByRole("textbox", { name: "Translation of a.greeting in fr" }).waitFor();
  expect(await page.locator(".cell-editor .warnings li").count()).toBe(0);
  await page.keyboard.type("Bonjour");
  await page
    .getByText(/\{name\}/)
    .first()
    .waitFor();
  expect(await page.locator(".cell-editor .warnings li").count()).toBeGreaterThan(0);
  await page.keyboard.type(" {name}");
  await page.waitForFunction(() => document.querySelectorAll(".cell-editor .warnings li").length === 0);
  // A fast typist does not wait for the save: the next string's editor takes the keys at once.
  await page.keyboard.press("Control+Enter");
  await page.keyboard.type("Retour");
  const back = page.getByRole("textbox", { name: "Translation of c.back in fr" });
  expect(await back.inputValue()).toBe("Retour");
  // Ctrl+B copies the base text; Esc cancels without saving; the keys after it move and edit.
  await page.keyboard.press("Control+b");
  expect(await back.inputValue()).toBe("Back");
  await page.keyboard.press("Escape");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Oui");
  expect(await page.getByRole("textbox", { name: "Translation of e.rtl in fr" }).inputValue()).toBe("Oui");
  await page.keyboard.press("Control+Enter");
  // The last string: nothing opens after it; the saves end (no cell says "Saving…").
  await page.waitForFunction(() => !document.querySelector(".cell-editor, .chip.saving"));
  await focused(page, '[data-key="e.rtl"][data-language="fr"]');
  // Said to screen readers and shown: a real line of text, not a clipped 1-pixel box.
  const lastSaid = page.getByText("That was the last string of this view");
  await lastSaid.waitFor();
  expect((await lastSaid.boundingBox())?.width ?? 0).toBeGreaterThan(100);
  expect(await pulled("fr")).toEqual({
    "a.greeting": "Bonjour {name}",
    "b.title": "Bienvenue",
    "d.save": "Enregistrer",
    "e.rtl": "Oui",
  });
  expect(await cell(page, "a.greeting", "fr").textContent()).toContain("Pending");
  // The filter bar's counts follow the saves without a reload: 3 missing before, 1 (c.back) now.
  await page.waitForFunction(() =>
    /Missing only \(1\)/.test(document.querySelector("form.filters")?.textContent ?? ""),
  );
  // The shortcuts overlay; closing it gives the focus back to the cell, so the keys go on working.
  await page.keyboard.press("?");
  await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await focused(page, '[data-key="e.rtl"][data-language="fr"]');
  await page.keyboard.press("Enter");
  await page.getByRole("textbox", { name: "Translation of e.rtl in fr" }).waitFor();
  await page.keyboard.press("Escape");
  expect(owner.problems).toEqual([]);
  expect(owner.offOrigin).toEqual([]);
}, 60_000);

test("filters live in the URL: a shared link opens the same view; right-to-left languages are shown so", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr,ar&missing=false"));
  await cell(page, "d.save", "ar").waitFor();
  expect(await cell(page, "d.save", "ar").getAttribute("aria-readonly")).toBe("false");
  await page.getByLabel("Search").fill("welcome");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "welcome");
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length === 1);
  const shared = page.url();
  const other = await openContext(browser, s.origin);
  await signIn(other.page, s, OWNER.email, OWNER.password);
  await other.page.goto(shared);
  await cell(other.page, "b.title", "fr").waitFor();
  expect(await other.page.locator('.grid-body [role="row"]').count()).toBe(1);
  expect(await other.page.getByLabel("Search").inputValue()).toBe("welcome");
  await other.context.close();
  // Arabic is written right to left.
  await page.goto(editorUrl("languages=ar&missing=false"));
  await cell(page, "b.title", "ar").click();
  await page.keyboard.press("Enter");
  expect(await page.getByRole("textbox", { name: "Translation of b.title in ar" }).getAttribute("dir")).toBe(
    "rtl",
  );
  await page.keyboard.type("أهلا");
  await page.keyboard.press("Control+Enter");
  await page.getByRole("textbox", { name: "Translation of c.back in ar" }).waitFor();
  await page.keyboard.press("Escape");
  expect(await cell(page, "b.title", "ar").locator(".value").getAttribute("dir")).toBe("rtl");
}, 60_000);

test("text typed in an open edit is saved when the view changes (a search), not dropped", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr&missing=false"));
  await cell(page, "e.rtl", "fr").click();
  await page.keyboard.press("Enter");
  await page.getByRole("textbox", { name: "Translation of e.rtl in fr" }).waitFor();
  await page.keyboard.press("Control+a");
  await page.keyboard.type("Oui, oui");
  await page.getByLabel("Search").fill("rtl");
  await cell(page, "e.rtl", "fr").waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-key="e.rtl"][data-language="fr"] .value')?.textContent === "Oui, oui",
  );
  expect((await pulled("fr"))["e.rtl"]).toBe("Oui, oui");
}, 60_000);

test("a concurrent edit never disappears: the second saver sees theirs and mine and chooses", async () => {
  const a = owner.page;
  const other = await openContext(browser, s.origin);
  const b = other.page;
  await signIn(b, s, OWNER.email, OWNER.password);
  for (const page of [a, b]) {
    await page.goto(editorUrl("languages=fr&missing=false"));
    await cell(page, "b.title", "fr").click();
    await page.keyboard.press("Enter");
  }
  await a.keyboard.press("Control+a");
  await a.keyboard.type("Bienvenue (A)");
  await a.keyboard.press("Control+Enter");
  await a.getByRole("textbox", { name: "Translation of c.back in fr" }).waitFor();
  await a.keyboard.press("Escape");
  await b.keyboard.press("Control+a");
  await b.keyboard.type("Bienvenue (B)");
  await b.keyboard.press("Control+Enter");
  const dialog = b.getByRole("dialog", { name: "Someone else changed this string" });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain("Bienvenue (A)");
  expect(await dialog.textContent()).toContain("Bienvenue (B)");
  expect(await seriousViolations(b)).toEqual([]);
  await dialog.getByRole("button", { name: "Keep mine" }).click();
  await b.waitForFunction(() => !document.querySelector("dialog[open]"));
  expect((await pulled("fr"))["b.title"]).toBe("Bienvenue (B)");
  await other.context.close();
}, 60_000);

test("back to editing saves mine over theirs at once; a conflict that comes back late waits for the string being typed", async () => {
  const a = owner.page;
  const other = await openContext(browser, s.origin);
  const b = other.page;
  await signIn(b, s, OWNER.email, OWNER.password);
  const edit = async (page: Page, key: string) => {
    await cell(page, key, "fr").click();
    await page.keyboard.press("Enter");
    await page.getByRole("textbox", { name: `Translation of ${key} in fr` }).waitFor();
  };
  const saveAs = async (page: Page, key: string, text: string) => {
    await edit(page, key);
    await page.keyboard.press("Control+a");
    await page.keyboard.type(text);
    await page.keyboard.press("Control+Enter");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector(".cell-editor"));
  };
  for (const page of [a, b]) await page.goto(editorUrl("languages=fr&missing=false"));
  await edit(b, "c.back");
  await saveAs(a, "c.back", "Retour (A)");
  await b.keyboard.press("Control+a");
  await b.keyboard.type("Retour (B)");
  await b.keyboard.press("Control+Enter");
  const dialog = b.getByRole("dialog", { name: "Someone else changed this string" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Back to editing" }).click();
  // Their text has been read: the next save is made over it, not met by the same conflict again.
  const box = b.getByRole("textbox", { name: "Translation of c.back in fr" });
  await box.waitFor();
  expect(await box.inputValue()).toBe("Retour (B)");
  await box.press("End");
  await box.type(" !");
  await box.press("Control+Enter");
  await b.waitForFunction(() => !document.querySelector(".cell-editor textarea[aria-label*='c.back']"));
  expect(await dialog.count()).toBe(0);
  await b.waitForFunction(
    () =>
      document.querySelector('[data-key="c.back"][data-language="fr"] .value')?.textContent ===
      "Retour (B) !",
  );
  expect((await pulled("fr"))["c.back"]).toBe("Retour (B) !");

  // A 412 that comes back while the next string is being typed: what is typed stays, and the
  // conflict is shown once that edit ends.
  await a.goto(editorUrl("languages=fr&missing=false"));
  await saveAs(a, "c.back", "Retour (A2)");
  await b.route("**/records", async (route) => {
    if (route.request().method() === "PUT") await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await edit(b, "c.back");
  await b.keyboard.press("Control+a");
  await b.keyboard.type("Retour (B2)");
  await b.keyboard.press("Control+Enter");
  const next = b.getByRole("textbox", { name: "Translation of d.save in fr" });
  await next.waitFor();
  await b.keyboard.press("Control+a");
  await b.keyboard.type("Sauver");
  await b.waitForTimeout(2_000);
  expect(await dialog.count()).toBe(0);
  expect(await next.inputValue()).toBe("Sauver");
  await b.unroute("**/records");
  await b.keyboard.press("Control+Enter");
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain("Retour (B2)");
  // Back to editing: the string in conflict, with the text that was not saved, then saved over theirs.
  await dialog.getByRole("button", { name: "Back to editing" }).click();
  const again = b.getByRole("textbox", { name: "Translation of c.back in fr" });
  await again.waitFor();
  expect(await again.inputValue()).toBe("Retour (B2)");
  await again.press("Control+Enter");
  await b.waitForFunction(
    () =>
      document.querySelector('[data-key="c.back"][data-language="fr"] .value')?.textContent === "Retour (B2)",
  );
  expect(await dialog.count()).toBe(0);
  const fr = await pulled("fr");
  expect(fr["c.back"]).toBe("Retour (B2)");
  expect(fr["d.save"]).toBe("Sauver");

  // Left with a search while the edit is stale: the save meets the conflict after the view is gone,
  // so the next view says what was not saved, with the text.
  await a.goto(editorUrl("languages=fr&missing=false"));
  await saveAs(a, "c.back", "Retour (A3)");
  await edit(b, "c.back");
  await b.keyboard.press("Control+a");
  await b.keyboard.type("Retour (B3)");
  await b.getByLabel("Search").fill("back");
  await b
    .getByText(
      "Not saved (someone changed it meanwhile, or the save failed), to write again: c.back in fr: “Retour (B3)”",
    )
    .waitFor();
  expect((await pulled("fr"))["c.back"]).toBe("Retour (A3)");
  expect(other.problems).toEqual([]);
  await other.context.close();
}, 60_000);

test("the history panel shows who changed what, and reverts", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr&missing=false"));
  await cell(page, "b.title", "fr").click();
  await page.keyboard.press("h");
  const panel = page.getByRole("complementary", { name: /History of b.title in fr/ });
  await panel.waitFor();
  await panel.getByText("Bienvenue (A)").first().waitFor();
  expect(await panel.textContent()).toContain(OWNER.name);
  expect(await seriousViolations(page)).toEqual([]);
  // The oldest entry: the push's "Bienvenue".
  await panel.getByRole("button", { name: "Revert to this" }).last().click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-key="b.title"][data-language="fr"] .value')?.textContent === "Bienvenue",
  );
  expect((await pulled("fr"))["b.title"]).toBe("Bienvenue");
}, 60_000);

test("with an Arabic keyboard layout, the shortcut keys work by their place (H opens the history)", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr&missing=false"));
  await cell(page, "b.title", "fr").click();
  // The key where a US keyboard has H types "ا" on an Arabic layout.
  await cell(page, "b.title", "fr").dispatchEvent("keydown", { key: "ا", code: "KeyH", bubbles: true });
  await page.getByRole("complementary", { name: /History of b.title in fr/ }).waitFor();
}, 60_000);

test("a status chosen puts 'missing only' aside; the history panel takes the focus and Esc gives it back", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr"));
  await page.getByRole("checkbox", { name: /^Pending/ }).check();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("missing") === "false");
  expect(await page.getByRole("checkbox", { name: /^Missing only/ }).isChecked()).toBe(false);
  await cell(page, "a.greeting", "fr").waitFor();
  await cell(page, "a.greeting", "fr").click();
  await page.keyboard.press("h");
  const panel = page.getByRole("complementary", { name: /History of a.greeting in fr/ });
  await panel.waitFor();
  await page.waitForFunction(() => document.activeElement?.matches("aside.history") === true);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("aside.history") !== null)).toBe(true);
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "detached" });
  await focused(page, '[data-key="a.greeting"][data-language="fr"]');
}, 60_000);

test("on a narrow screen, the column names scroll sideways with the rows", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 390, height: 800 });
  try {
    await page.goto(editorUrl("languages=fr,ar&missing=false"));
    await cell(page, "a.greeting", "ar").waitFor();
    const scrolled = await page.evaluate(() => {
      const body = document.querySelector(".grid-scroll") as HTMLElement;
      body.scrollLeft = 200;
      body.dispatchEvent(new Event("scroll"));
      return {
        body: body.scrollLeft,
        head: (document.querySelector(".grid-head") as HTMLElement).scrollLeft,
      };
    });
    expect(scrolled.body).toBeGreaterThan(0);
    await page.waitForFunction(
      (left) => (document.querySelector(".grid-head") as HTMLElement).scrollLeft === left,
      scrolled.body,
    );
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}, 60_000);

test("bulk: select rows with Space and approve them", async () => {
  const { page } = owner;
  await page.goto(editorUrl("languages=fr&missing=false"));
  await cell(page, "a.greeting", "fr").click();
  await page.keyboard.press(" ");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press(" ");
  const bulk = page.getByRole("region", { name: "Bulk actions" });
  await bulk.getByText("2 selected").waitFor();
  await bulk.getByRole("button", { name: "Approve in fr" }).click();
  await page.waitForFunction(() =>
    ["a.greeting", "b.title"].every((k) =>
      document.querySelector(`[data-key="${k}"][data-language="fr"] .chip.approved`),
    ),
  );
  // The bulk bar left with the selection; the focus is back on a string, not on the page.
  await page.waitForFunction(() => document.activeElement?.closest("[data-key]") !== null);
  expect(owner.problems).toEqual([]);
}, 60_000);

test("role limits are visible: a translator limited to fr sees ar read-only and no approval", async () => {
  // An invitation made and accepted through the workspace API, as the pages do.
  const owners = owner.context.request;
  const invited = await owners.post(`${s.origin}/api/workspace/orgs/${s.orgId}/invitations`, {
    headers: { origin: s.origin },
    data: { email: "tess@example.com", role: "translator", languages: ["fr"] },
  });
  expect(invited.status()).toBe(201);
  const { token } = ((await invited.json()) as { data: { token: string } }).data;
  const tess = await openContext(browser, s.origin);
  const accepted = await tess.context.request.post(`${s.origin}/api/workspace/invitations/accept`, {
    headers: { origin: s.origin },
    data: { token, name: "Tess", password: "tess's long password" },
  });
  expect(accepted.status()).toBe(201);
  const { page } = tess;
  await page.goto(editorUrl("languages=fr,ar&missing=false"));
  await cell(page, "a.greeting", "ar").waitFor();
  expect(await page.getByRole("columnheader", { name: /ar read-only/ }).count()).toBe(1);
  // Keys are managed by developers and above: a translator has no Keys toolbar.
  expect(await page.getByRole("region", { name: "Keys" }).count()).toBe(0);
  expect(await cell(page, "a.greeting", "ar").getAttribute("aria-readonly")).toBe("true");
  await cell(page, "a.greeting", "ar").click();
  await page.keyboard.press("Enter");
  await page.getByText("ar is read-only for you").waitFor();
  expect(await page.locator(".cell-editor").count()).toBe(0);
  // fr is editable, but a translator does not approve: no button, and the shortcut says why.
  await cell(page, "a.greeting", "fr").click();
  expect(await page.getByRole("button", { name: /^Edit/ }).count()).toBe(1);
  expect(await page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
  await page.keyboard.press("a");
  await page.getByText("Only reviewers of fr can change this status").waitFor();
  await page.keyboard.press(" ");
  await page.getByText("Only reviewers of fr can approve.").waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  expect(tess.problems).toEqual([]);
  await tess.context.close();
}, 60_000);

test("keys: a developer and above adds, renames and deletes keys in the editor; an admin restores one", async () => {
  const keys = await createProject(s, "Keys", "en", ["fr"]);
  await push(s, keys.id, "en", { "k.one": "One", "k.two": "Two" });
  const { page } = owner;
  await page.goto(`${s.origin}/projects/${keys.id}/editor?languages=fr&missing=false`);
  await cell(page, "k.one", "fr").waitFor();
  const bar = page.getByRole("region", { name: "Keys" });
  // Add: the new key becomes the current row, focused, ready for Enter.
  await bar.getByRole("button", { name: "Add key" }).click();
  const add = page.getByRole("dialog", { name: "Add a key" });
  await add.getByLabel("Key").fill("k.three");
  await add.getByLabel("Base text (en)").fill("Three");
  expect(await seriousViolations(page)).toEqual([]);
  await add.getByLabel("Base text (en)").press("Enter");
  await focused(page, '[data-key="k.three"][data-language="fr"]');
  const three = page.locator('[role="row"]', { has: page.locator('[data-key="k.three"]') });
  expect(await three.locator(".cell.base").textContent()).toBe("Three");
  // Rename the current row's key: every language and the history follow.
  await cell(page, "k.one", "fr").click();
  await page.keyboard.press("Enter");
  await page.keyboard.type("Un");
  await page.keyboard.press("Control+Enter");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector(".cell-editor, .chip.saving"));
  await cell(page, "k.one", "fr").click();
  await bar.getByRole("button", { name: "Rename key" }).click();
  const rename = page.getByRole("dialog", { name: "Rename k.one" });
  await rename.getByLabel("New name").fill("k.first");
  await rename.getByRole("button", { name: "Rename" }).click();
  await cell(page, "k.first", "fr").waitFor();
  await focused(page, '[data-key="k.first"][data-language="fr"]');
  expect((await pulled(keys.id, "fr"))["k.first"]).toBe("Un");
  // Delete the current one; it leaves the list and the pull.
  await bar.getByRole("button", { name: "Delete key" }).click();
  await page.getByRole("dialog", { name: "Delete k.first" }).getByRole("button", { name: "Delete" }).click();
  await page.waitForFunction(() => !document.querySelector('[data-key="k.first"]'));
  expect(await pulled(keys.id, "en")).toEqual({ "k.two": "Two", "k.three": "Three" });
  // Restore it (owners and admins): back with its French text.
  await bar.getByRole("button", { name: "Deleted keys" }).click();
  const deleted = page.getByRole("dialog", { name: "Deleted keys" });
  await deleted.getByRole("button", { name: "Restore k.first" }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await deleted.getByRole("button", { name: "Restore k.first" }).click();
  await cell(page, "k.first", "fr").waitFor();
  await focused(page, '[data-key="k.first"][data-language="fr"]');
  expect(await pulled(keys.id, "fr")).toEqual({ "k.first": "Un" });
  expect(owner.problems).toEqual([]);
}, 60_000);

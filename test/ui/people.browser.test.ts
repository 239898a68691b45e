import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchBrowser, openContext, seriousViolations, type Watched } from "../support/browser.ts";
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
 * Issue 12, people: the first owner from the printed link, sign-in and sign-out, password and
 * sessions, an invitation accepted by the invitee, members and API keys. One server and one
 * browser for the file; the tests run in order, as a team's first hour does.
 */
let s: WorkspaceServer;
let browser: Browser;
let owner: Watched;
/** The owner's password as the tests change it. */
let password = OWNER.password;
beforeAll(async () => {
  [s, browser] = await Promise.all([startWorkspaceServer("sqlite"), launchBrowser()]);
  owner = await openContext(browser, s.origin);
});
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

const clean = (w: Watched) => {
  expect(w.offOrigin).toEqual([]);
  expect(w.problems).toEqual([]);
};

test("the first owner sets up from the printed link and lands signed in on the dashboard", async () => {
  const { page } = owner;
  await setUpOwner(page, s);
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await page.getByRole("link", { name: new RegExp(OWNER.name) }).isVisible()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  // The link works once.
  const other = await openContext(browser, s.origin);
  await other.page.goto(s.setupLink);
  // The server already holds its organization, so the form does not ask for a name it would not use.
  await other.page.getByLabel("Your name").waitFor();
  await other.page.waitForLoadState("networkidle");
  expect(await other.page.getByLabel("Organization name").count()).toBe(0);
  await other.page.getByLabel("Your name").fill("Mallory");
  await other.page.getByLabel("Email").fill("mallory@example.com");
  await other.page.getByLabel("Password").fill("another long password");
  await other.page.getByRole("button", { name: "Create owner account" }).click();
  await other.page.getByRole("alert").waitFor();
  await other.context.close();
  clean(owner);
}, 60_000);

test("sign out, then sign in again; a wrong password is refused with a message", async () => {
  const { page } = owner;
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").waitFor();
  await signIn(page, s, OWNER.email, password);
  clean(owner);
}, 60_000);

test("the account page changes the password and revokes another session", async () => {
  // A second session of the owner, in another browser context.
  const second = await openContext(browser, s.origin);
  await signIn(second.page, s, OWNER.email, password);
  const { page } = owner;
  await page.getByRole("link", { name: new RegExp(OWNER.name) }).click();
  await page.getByRole("heading", { name: "Sessions" }).waitFor();
  await page.getByRole("button", { name: "Revoke" }).first().waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Revoke" }).first().click();
  await page.waitForFunction(() => !document.querySelector("tbody button"));
  // The revoked session is signed out on its next request.
  await second.page.reload();
  await second.page.getByRole("heading", { name: "Sign in" }).waitFor();
  await second.context.close();

  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("Password changed").waitFor();
  password = "a brand new passphrase";
  clean(owner);
}, 60_000);

test("an invitation: the link is shown to hand over; the invitee joins as a translator limited to fr", async () => {
  const { page } = owner;
  await page.getByRole("link", { name: "Members" }).click();
  await page.getByRole("heading", { name: /^Members of/ }).waitFor();
  await page.getByLabel("Email", { exact: true }).fill("tess@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("translator");
  // Typed in another case, the code is kept in the case projects use (FR → fr).
  await page.getByLabel("Languages", { exact: true }).fill("FR");
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/invite#\S+$/);
  await page.getByText("tess@example.com · translator (fr)").waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  const tess = await openContext(browser, s.origin);
  await tess.page.goto(link.replace(/^http:\/\/[^/]+/, s.origin));
  await tess.page.getByText("as translator for fr").waitFor();
  expect(await seriousViolations(tess.page)).toEqual([]);
  await tess.page.getByLabel("Your name").fill("Tess Translator");
  await tess.page.getByLabel("Choose a password").fill("tess's long password");
  await tess.page.getByRole("button", { name: "Accept invitation" }).click();
  await tess.page.getByRole("heading", { name: /^Projects/ }).waitFor();
  // A translator sees no member or key administration.
  expect(await tess.page.getByRole("link", { name: "Members" }).count()).toBe(0);
  expect(await tess.page.getByRole("link", { name: "API keys" }).count()).toBe(0);
  expect(await tess.page.getByText("Tess Translator · translator").isVisible()).toBe(true);
  clean(tess);
  await tess.context.close();

  // The owner sees Tess among the members and can widen her languages.
  await page.reload();
  const role = page.getByLabel("Role of Tess Translator");
  await role.waitFor();
  await role.selectOption("reviewer");
  await page
    .getByRole("row", { name: /Tess Translator/ })
    .getByRole("button", { name: "Save" })
    .click();
  await page.waitForFunction(() =>
    [...document.querySelectorAll("select")].some(
      (s) =>
        s.getAttribute("aria-label") === "Role of Tess Translator" &&
        (s as HTMLSelectElement).value === "reviewer",
    ),
  );
  clean(owner);
}, 60_000);

test("API keys: created with scopes and a rate limit, shown once with a copy button, then deactivated", async () => {
  const { page } = owner;
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();
  await page.getByLabel("Name").fill("ci");
  await page.getByLabel("Rate limit (requests per hour)").fill("500");
  await page.getByRole("checkbox", { name: /translations:write/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByLabel("API key ci").inputValue();
  expect(key).toMatch(/^pl_[0-9a-f]{64}$/);
  expect(await page.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  // The key works, with the scopes chosen.
  const test = await fetch(`${s.origin}/api/v1/test`, { headers: { authorization: `Bearer ${key}` } });
  expect(((await test.json()) as { data: { scopes: string[]; rateLimit: number } }).data).toMatchObject({
    scopes: ["translations:read", "translations:write"],
    rateLimit: 500,
  });
  // Shown once: after "Done" the page holds only the prefix.
  await page.getByRole("button", { name: "Done, I stored it" }).click();
  expect(await page.content()).not.toContain(key);
  expect(await page.getByRole("cell", { name: `${key.slice(0, 9)}…` }).isVisible()).toBe(true);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Deactivate ci" }).click();
  await page.getByRole("row", { name: /^ci / }).getByText("inactive").waitFor();
  const after = await fetch(`${s.origin}/api/v1/test`, { headers: { authorization: `Bearer ${key}` } });
  expect(after.status).toBe(401);
  clean(owner);
}, 60_000);

test("the dashboard: a coverage bar per language and a link that continues translating what is missing", async () => {
  const project = await createProject(s, "Storefront", "en", ["fr", "de"]);
  await push(s, project.id, "en", { a: "One", b: "Two", c: "Three", d: "Four" });
  await push(s, project.id, "fr", { a: "Un", b: "Deux", c: "Trois" });
  const { page } = owner;
  await page.getByRole("link", { name: "Projects" }).click();
  const link = page.getByRole("link", { name: "Continue translating Storefront into fr (1 missing)" });
  await link.waitFor();
  expect(await link.getAttribute("href")).toBe(`/projects/${project.id}/editor?languages=fr&missing=true`);
  expect(
    await page.getByRole("img", { name: /^fr: 75% translated of 4 keys \(3 approved, 1 missing\)/ }).count(),
  ).toBe(1);
  expect(await page.getByRole("img", { name: /^de: 0% translated of 4 keys/ }).count()).toBe(1);
  // The share is also in sight beside each bar.
  const rows = await page
    .locator("section.project-card", { hasText: "Storefront" })
    .locator(".lang-row")
    .allInnerTexts();
  expect(rows.map((t) => t.split(/\s+/).join(" "))).toEqual(["fr 75% Continue (1)", "de 0% Continue (4)"]);
  expect(await seriousViolations(page)).toEqual([]);
  const dark = await openContext(browser, s.origin, { colorScheme: "dark" });
  await dark.context.addCookies(await owner.context.cookies());
  await dark.page.goto(`${s.origin}/`);
  await dark.page.getByRole("link", { name: /Continue translating Storefront into fr/ }).waitFor();
  expect(await seriousViolations(dark.page)).toEqual([]);
  clean(dark);
  await dark.context.close();
  clean(owner);
}, 60_000);

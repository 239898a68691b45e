import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser, openContext, seriousViolations, type Watched } from "../support/browser.ts";
import { tempDir } from "../support/process.ts";
import {
  createProject,
  type ProjectView,
  push,
  setUpOwner,
  startWorkspaceServer,
  type WorkspaceServer,
} from "../support/workspace-e2e.ts";

/** Issue 12, the project page: a JSON upload previewed then imported with its progress, and every download. */
let s: WorkspaceServer;
let browser: Browser;
let owner: Watched;
let project: ProjectView;
beforeAll(async () => {
  [s, browser] = await Promise.all([startWorkspaceServer("sqlite"), launchBrowser()]);
  project = await createProject(s, "My App", "en", ["fr", "de"]);
  await push(s, project.id, "en", { "home.title": "Welcome", "home.body": "Hello", "nav.back": "Back" });
  owner = await openContext(browser, s.origin);
  await setUpOwner(owner.page, s);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

test("a JSON upload: the dry run says what would change, confirming runs the job to its end", async () => {
  const { page } = owner;
  await page.goto(`${s.origin}/projects/${project.id}`);
  await page.getByRole("heading", { name: "My App" }).waitFor();
  const file = join(tempDir(), "fr.json");
  writeFileSync(file, JSON.stringify({ home: { title: "Bienvenue" }, nav: { back: "Retour" } }));
  await page.getByLabel("JSON file", { exact: true }).setInputFiles(file);
  await page.getByLabel("Language", { exact: true }).selectOption("fr");
  await page.getByRole("button", { name: "Preview import" }).click();
  const preview = page.getByRole("status").filter({ hasText: "would change" });
  await preview.waitFor();
  expect(await preview.textContent()).toMatch(/Rows in the file\s*2\s*To create\s*2\s*To update\s*0/);
  expect(await seriousViolations(page)).toEqual([]);
  // Nothing is written by the preview.
  const before = await fetch(`${s.origin}/api/v1/pull?project_id=${project.id}&language=fr`, {
    headers: { authorization: `Bearer ${s.key}` },
  });
  expect(before.status).toBe(404);
  await page.getByRole("button", { name: "Confirm import" }).click();
  await page.getByText("Import job completed: 2 created, 0 updated").waitFor();
  // The recent imports list it with its live status, newest first.
  const jobs = page.getByRole("region", { name: "Recent imports" });
  await jobs.getByText("2 created, 0 updated").waitFor();
  expect(await jobs.locator("li").first().locator(".chip").textContent()).toBe("completed");
  const after = await fetch(`${s.origin}/api/v1/pull?project_id=${project.id}&language=fr`, {
    headers: { authorization: `Bearer ${s.key}` },
  });
  expect(await after.json()).toEqual({ "home.title": "Bienvenue", "nav.back": "Retour" });
  expect(owner.offOrigin).toEqual([]);
}, 60_000);

test("downloads: each format of each language is saved under the server's file name", async () => {
  const { page } = owner;
  await page.goto(`${s.origin}/projects/${project.id}`);
  const expected: [string, string, RegExp][] = [
    ["JSON", "my-app.fr.json", /"home\.title": "Bienvenue"/],
    ["JSON (nested)", "my-app.fr.json", /"home": \{\n {4}"title": "Bienvenue"/],
    ["CSV", "my-app.fr.csv", /^key,fr\r\nhome\.title,Bienvenue\r\n/],
    ["XLIFF", "my-app.fr.xlf", /<target state="final">Bienvenue<\/target>/],
    ["Android XML", "my-app.fr.xml", /<string name="home\.title">Bienvenue<\/string>/],
    ["YAML", "my-app.fr.yaml", /"home\.title": "Bienvenue"/],
  ];
  for (const [label, name, content] of expected) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: `Download fr as ${label}`, exact: true }).click(),
    ]);
    expect(download.suggestedFilename(), label).toBe(name);
    const path = join(tempDir(), name);
    await download.saveAs(path);
    expect(readFileSync(path, "utf8"), label).toMatch(content);
  }
  expect(await seriousViolations(page)).toEqual([]);
  expect(owner.offOrigin).toEqual([]);
}, 60_000);

test("a developer's upload offers draft and pending only, pending by default: approving is reviewing", async () => {
  const invited = await owner.context.request.post(`${s.origin}/api/workspace/orgs/${s.orgId}/invitations`, {
    headers: { origin: s.origin },
    data: { email: "dev@example.com", role: "developer" },
  });
  expect(invited.status()).toBe(201);
  const { token } = ((await invited.json()) as { data: { token: string } }).data;
  const dev = await openContext(browser, s.origin);
  try {
    const accepted = await dev.context.request.post(`${s.origin}/api/workspace/invitations/accept`, {
      headers: { origin: s.origin },
      data: { token, name: "Dev", password: "dev's long password" },
    });
    expect(accepted.status()).toBe(201);
    const { page } = dev;
    await page.goto(`${s.origin}/projects/${project.id}`);
    await page.getByRole("heading", { name: "My App" }).waitFor();
    const status = page.getByLabel("Status of imported strings");
    expect(await status.inputValue()).toBe("pending");
    expect(await status.locator("option").allTextContents()).toHaveLength(2);
    const file = join(tempDir(), "de.json");
    writeFileSync(file, JSON.stringify({ home: { title: "Willkommen" } }));
    await page.getByLabel("JSON file", { exact: true }).setInputFiles(file);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("button", { name: "Preview import" }).click();
    await page.getByRole("button", { name: "Confirm import" }).click();
    await page.getByText("Import job completed: 1 created, 0 updated").waitFor();
    // The row awaits a reviewer.
    const records = await owner.context.request.get(
      `${s.origin}/api/workspace/projects/${project.id}/records?languages=de`,
    );
    expect(JSON.stringify(await records.json())).toContain('"status":"pending"');
    expect(dev.problems).toEqual([]);
  } finally {
    await dev.context.close();
  }
}, 60_000);

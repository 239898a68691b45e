#!/usr/bin/env bun
/**
 * `bun run screenshots`: regenerates the workspace's pictures in docs/screenshots/ (dashboard,
 * editor in light and dark, history panel) from a real server on a fresh SQLite store, driven
 * through the same pages a person uses, in Debian's Chromium.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { launchBrowser, openContext } from "../test/support/browser.ts";
import { createProject, push, setUpOwner, startWorkspaceServer } from "../test/support/workspace-e2e.ts";

const OUT = join(import.meta.dir, "..", "docs", "screenshots");

const EN: Record<string, string> = {
  "checkout.title": "Checkout",
  "checkout.total": "Total: {amount}",
  "checkout.items": "{count, plural, one {# item} other {# items}} in your cart",
  "checkout.pay": "Pay now",
  "checkout.terms": "By paying you accept our <a>terms of sale</a>.",
  "home.greeting": "Hello, {name}!",
  "home.title": "Welcome to Acme",
  "home.subtitle": "Everything you need,\nnothing you don't.",
  "nav.back": "Back",
  "nav.settings": "Settings",
  "profile.delete": "Delete account",
  "profile.save": "Save changes",
};
const FR: Record<string, string> = {
  "checkout.title": "Paiement",
  "checkout.total": "Total : {amount}",
  "checkout.items": "{count, plural, one {# article} other {# articles}} dans votre panier",
  "home.greeting": "Bonjour, {nom} !",
  "home.title": "Bienvenue chez Acme",
  "nav.back": "Retour",
  "profile.save": "Enregistrer ",
};
const AR: Record<string, string> = {
  "checkout.title": "الدفع",
  "home.title": "مرحبا بكم في أكمي",
  "nav.back": "رجوع",
  "nav.settings": "الإعدادات",
};

if (import.meta.main) {
  let owner: BrowserContext | undefined;
  mkdirSync(OUT, { recursive: true });
  const s = await startWorkspaceServer("sqlite");
  const browser = await launchBrowser();
  try {
    const project = await createProject(s, "Acme Shop", "en", ["fr", "ar", "de"]);
    await createProject(s, "Acme Mobile", "en", ["fr", "es"]);
    await push(s, project.id, "en", EN);
    await push(s, project.id, "fr", FR, "pending");
    await push(s, project.id, "ar", AR);
    for (const scheme of ["light", "dark"] as const) {
      const { page, context } = await openContext(browser, s.origin, {
        colorScheme: scheme,
        // Tall enough for all twelve strings with the open cell's warnings: the grid starts at its top.
        viewport: { width: 1360, height: 1080 },
      });
      if (scheme === "light") {
        await setUpOwner(page, s);
        await page.getByRole("link", { name: /Continue translating Acme Shop into fr/ }).waitFor();
        await page.screenshot({ path: join(OUT, "dashboard.png") });
      } else {
        if (owner) await context.addCookies(await owner.cookies());
      }
      await page.goto(`${s.origin}/projects/${project.id}/editor?languages=fr,ar&missing=false`);
      await page.getByRole("grid").getByText("checkout.items").waitFor();
      await page.locator('[data-key="home.greeting"][data-language="fr"]').click();
      await page.screenshot({ path: join(OUT, `editor-${scheme}.png`) });
      if (scheme === "light") {
        await page.keyboard.press("Enter");
        await page.keyboard.type(" Bonjour");
        await page.keyboard.press("Control+Enter");
        await page.keyboard.press("Escape");
        await page.locator('[data-key="home.greeting"][data-language="fr"]').click();
        await page.keyboard.press("h");
        await page.getByRole("heading", { name: /History of/ }).waitFor();
        await page.getByRole("button", { name: "Revert to this" }).first().waitFor();
        await page.screenshot({ path: join(OUT, "history.png") });
        owner = context;
      }
    }
    process.stderr.write(`screenshots written to ${OUT}\n`);
  } finally {
    await browser.close();
    await s.stop();
  }
}

/**
 * The test file of an imaginary shop that keeps its product strings in Parlance. It tests its own
 * workflow against in-memory storage and a fixed clock: no server, no database, no sleeping, a few
 * milliseconds per test. Written for node:test, which Node, Bun and Deno all run:
 *
 *   node --test examples/app-translations.test.ts   bun test ./examples/app-translations.test.ts
 *   deno test -A examples/app-translations.test.ts
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createParlance, type Parlance, type ParlanceEvents } from "parlance-tms";
import { createMemoryStorage } from "parlance-tms/storage/memory";
import { createFixedClock } from "parlance-tms/testing";

// ---- the shop's own code (it would live in the app, not in its tests) ----

interface Product {
  sku: string;
  name: string;
}

/** Publishes a product's English name for the translators. */
async function publishProduct(parlance: Parlance, orgId: string, projectId: string, product: Product) {
  const content = JSON.stringify({ products: { [product.sku]: product.name } });
  await parlance.as(orgId, "shop").push({ projectId, language: "en", content });
}

/** The languages still missing strings, for the shop's release checklist. */
async function incompleteLanguages(parlance: Parlance, orgId: string, projectId: string) {
  const report = await parlance.as(orgId, "shop").coverage(projectId);
  return report.locales.filter((l) => l.missingCount > 0).map((l) => l.language);
}

// ---- its tests ----

async function shop() {
  const clock = createFixedClock("2026-05-01T09:00:00Z");
  const parlance = createParlance({ storage: createMemoryStorage(), clock });
  const org = await parlance.admin.createOrg("Shop");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Catalogue",
    baseLanguage: "en",
    languages: ["fr"],
  });
  return { parlance, clock, orgId: org.id, projectId: project.id };
}

test("a new product is missing in French until the translators deliver", async () => {
  const { parlance, orgId, projectId } = await shop();
  await publishProduct(parlance, orgId, projectId, { sku: "mug", name: "Mug" });
  await parlance.idle();
  assert.deepEqual(await incompleteLanguages(parlance, orgId, projectId), ["fr"]);

  await parlance.as(orgId).push({ projectId, language: "fr", content: '{"products":{"mug":"Tasse"}}' });
  await parlance.idle();
  assert.deepEqual(await incompleteLanguages(parlance, orgId, projectId), []);
});

test("the shop hears about every import, stamped with the test's own clock", async () => {
  const { parlance, clock, orgId, projectId } = await shop();
  const changes: ParlanceEvents["translations.changed"][] = [];
  parlance.on("translations.changed", (change) => void changes.push(change));

  await publishProduct(parlance, orgId, projectId, { sku: "mug", name: "Mug" });
  await parlance.idle();
  clock.advance(24 * 3600 * 1000); // a day later, without waiting a day
  await publishProduct(parlance, orgId, projectId, { sku: "mug", name: "Coffee mug" });
  await parlance.idle();

  assert.deepEqual(
    changes.map((c) => [c.language, c.created, c.updated, c.at]),
    [
      ["en", 1, 0, "2026-05-01T09:00:00.000Z"],
      ["en", 0, 1, "2026-05-02T09:00:00.000Z"],
    ],
  );
  const listed = await parlance.as(orgId).listTranslations({ projectId, language: "en" });
  assert.equal(listed.data[0]?.updatedAt, "2026-05-02T09:00:00.000Z");
});

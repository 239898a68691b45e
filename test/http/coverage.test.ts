/**
 * GET /api/v1/coverage (API.md coverage, CONTRACT §8): the report's shape, its arithmetic and the
 * order of locales.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import { expectError, pushAndWait } from "../support/translation-io.ts";

const entry = (language: string, filledKeys: number, total: number, coveragePercent: number) => ({
  language,
  coveragePercent,
  filledKeys,
  missingCount: total - filledKeys,
  totalReferenceKeys: total,
});

await forEachStore((kind) => {
  let s: TestServer, orgId: string, key: string;
  useWorld(kind, (w) => ({ s, orgId, key } = w));

  const coverage = (projectId: string, k = key) =>
    s.request(`/api/v1/coverage?project_id=${projectId}`, { key: k });

  test("exact report: empty base values are not reference keys, keys outside the base do not count, floors", async () => {
    const p = await s.seed.project(orgId, {
      name: "Web App",
      base: "en",
      languages: ["en", "fr", "de", "es"],
    });
    const push = (language: string, content: Record<string, string>) =>
      pushAndWait(s, { key, projectId: p.id, language }, content);
    await push("en", { k1: "A", k2: "B", k3: "C", k4: "" });
    await push("fr", { k1: "a", k2: "", k4: "filled but not a reference key", onlyFr: "y" });
    await push("de", { k1: "a", k2: "b", extra1: "x", extra2: "y", extra3: "z" });
    const res = await coverage(p.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        projectId: p.id,
        projectName: "Web App",
        baseLanguage: "en",
        hasReferenceKeys: true,
        referenceKeyCount: 3,
        locales: [entry("en", 3, 3, 100), entry("de", 2, 3, 66), entry("es", 0, 3, 0), entry("fr", 1, 3, 33)],
      },
    });
  });

  test("percentages are floored, never rounded up to 100", async () => {
    const p = await s.seed.project(orgId, { base: "en", languages: ["en", "fr"] });
    const base = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, `v${i}`]));
    await pushAndWait(s, { key, projectId: p.id, language: "en" }, base);
    const almost = Object.fromEntries(Array.from({ length: 199 }, (_, i) => [`k${i}`, `f${i}`]));
    await pushAndWait(s, { key, projectId: p.id, language: "fr" }, almost);
    const body = (await (await coverage(p.id)).json()) as { data: { locales: unknown[] } };
    expect(body.data.locales).toEqual([entry("en", 200, 200, 100), entry("fr", 199, 200, 99)]);
  });

  test("locales: base first, then the others in code-point order of their codes", async () => {
    const p = await s.seed.project(orgId, {
      base: "fr",
      languages: ["zh-Hant", "fr", "de", "zh-CN", "ar", "ZU", "en-US", "en"],
    });
    await s.parlance.admin.addLanguage(p.id, "pt-BR");
    await s.parlance.admin.addLanguage(p.id, "aa");
    await pushAndWait(s, { key, projectId: p.id, language: "fr" }, { a: "x" });
    await pushAndWait(s, { key, projectId: p.id, language: "ZU" }, { a: "x" });
    const body = (await (await coverage(p.id)).json()) as {
      data: { locales: { language: string; filledKeys: number }[] };
    };
    expect(body.data.locales.map((l) => l.language)).toEqual([
      "fr",
      "ZU",
      "aa",
      "ar",
      "de",
      "en",
      "en-US",
      "pt-BR",
      "zh-CN",
      "zh-Hant",
    ]);
    expect(body.data.locales.map((l) => l.filledKeys)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  test("no reference keys: hasReferenceKeys false and every percentage 0", async () => {
    const p = await s.seed.project(orgId, { name: "Empty", base: "en", languages: ["en", "fr"] });
    const empty = {
      data: {
        projectId: p.id,
        projectName: "Empty",
        baseLanguage: "en",
        hasReferenceKeys: false,
        referenceKeyCount: 0,
        locales: [entry("en", 0, 0, 0), entry("fr", 0, 0, 0)],
      },
    };
    expect(await (await coverage(p.id)).json()).toEqual(empty);
    // Only empty base values, and values elsewhere: still no reference keys.
    await pushAndWait(s, { key, projectId: p.id, language: "en" }, { a: "", b: "" });
    await pushAndWait(s, { key, projectId: p.id, language: "fr" }, { a: "x", c: "y" });
    expect(await (await coverage(p.id)).json()).toEqual(empty);
  });

  test("project_id missing or not a UUID → 400; unknown, another organization's or deleted → 404", async () => {
    const p = await s.seed.project(orgId);
    await expectError(await s.request("/api/v1/coverage", { key }), 400, "project_id");
    await expectError(await coverage("nope"), 400, "project_id");
    await expectError(await coverage(crypto.randomUUID()), 404);
    const stranger = await s.seed.world();
    await expectError(await coverage(p.id, stranger.key.key), 404);
    await s.parlance.admin.deleteProject(p.id);
    await expectError(await coverage(p.id), 404);
  });

  test("needs translations:read: 403 for any other scope set, 401 without a key", async () => {
    const p = await s.seed.project(orgId);
    const without = await s.seed.key(orgId, { scopes: SCOPES.filter((x) => x !== "translations:read") });
    await expectError(await coverage(p.id, without.key), 403);
    await expectError(await s.request(`/api/v1/coverage?project_id=${p.id}`), 401);
    const only = await s.seed.key(orgId, { scopes: ["translations:read"] });
    expect((await coverage(p.id, only.key)).status).toBe(200);
  });
});

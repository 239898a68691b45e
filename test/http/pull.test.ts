/**
 * GET /api/v1/pull (API.md pull, CONTRACT §7, §10–11), json format: the body, the headers, ETags,
 * selected_ids, environments, the errors, every registered format's headers, and the round trip.
 */
import { describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import { expectRateHeaders } from "../support/http.ts";
import { expectError, type PushTarget, pushAndWait, storedRows } from "../support/translation-io.ts";

/** Keys whose UTF-16 order differs from code-point order, integer-like keys, case and dots. */
const TRICKY: Record<string, string> = {
  "😀": "astral",
  "\uFFFD": "replacement char",
  "\uE000": "private use",
  "10": "ten",
  "2": "two",
  "1": "one",
  b: "lower",
  B: "upper",
  "a.b": 'quote " backslash \\ slash /',
  "a.b.c": "line\nbreak\ttab\rcr",
  é: "accent",
  nul: "null",
};
const TRICKY_JSON =
  "{\n" +
  '  "1": "one",\n' +
  '  "10": "ten",\n' +
  '  "2": "two",\n' +
  '  "B": "upper",\n' +
  '  "a.b": "quote \\" backslash \\\\ slash /",\n' +
  '  "a.b.c": "line\\nbreak\\ttab\\rcr",\n' +
  '  "b": "lower",\n' +
  '  "nul": "null",\n' +
  '  "é": "accent",\n' +
  '  "\uE000": "private use",\n' +
  '  "\uFFFD": "replacement char",\n' +
  '  "😀": "astral"\n' +
  "}\n";

const FORMATS: [string, string, string][] = [
  ["json", "application/json; charset=utf-8", "json"],
  ["csv", "text/csv; charset=utf-8", "csv"],
  ["xliff", "application/xliff+xml; charset=utf-8", "xlf"],
  ["xml", "application/xml; charset=utf-8", "xml"],
  ["yaml", "application/yaml; charset=utf-8", "yaml"],
];

await forEachStore((kind) => {
  let s: TestServer, orgId: string, projectId: string, key: string, fr: PushTarget;
  useWorld(kind, (w) => ({ s, orgId, projectId, key, fr } = w));

  const pull = (
    params: Record<string, string>,
    init: { key?: string; headers?: Record<string, string> } = {},
  ) => s.request(`/api/v1/pull?${new URLSearchParams(params)}`, { key, ...init });
  const pullFr = (extra: Record<string, string> = {}, headers?: Record<string, string>) =>
    pull({ project_id: projectId, language: "fr", ...extra }, { headers });

  describe("json body and headers", () => {
    test("the flat object, keys in code-point order, 2-space indent, final newline", async () => {
      await pushAndWait(s, fr, TRICKY);
      const res = await pullFr();
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toBe(TRICKY_JSON);
      expect(JSON.parse(text)).toEqual(TRICKY);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.fr\.json"$/);
      expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
      expect(res.headers.get("deprecation")).toBeNull();
      // format=json explicitly is the same answer.
      expect(await (await pullFr({ format: "json" })).text()).toBe(TRICKY_JSON);
    });

    test("nested input is exported flat", async () => {
      await pushAndWait(s, fr, { menu: { file: { open: "Ouvrir" } }, list: ["x"] });
      expect(await (await pullFr()).text()).toBe('{\n  "list.0": "x",\n  "menu.file.open": "Ouvrir"\n}\n');
    });

    test("Content-Disposition names the file <slug>.<language>.json", async () => {
      const cases: [string, string][] = [
        ["Ünïcode App!!", "n-code-app"],
        ["  My   Project 2 ", "my-project-2"],
        ["MOBILE_app.v2", "mobile-app-v2"],
        ["!!!", "project"],
        ["日本語", "project"],
        ["--a--", "a"],
      ];
      for (const [name, slug] of cases) {
        const p = await s.seed.project(orgId, { name });
        await pushAndWait(s, { key, projectId: p.id, language: "en" }, { a: "A" });
        const res = await pull({ project_id: p.id, language: "en" });
        expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.en.json"`);
      }
    });

    test("every registered format answers 200 with its Content-Type and extension", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await pushAndWait(s, { ...fr, language: "en" }, { a: "one" });
      const p = await s.seed.project(orgId, { name: "Shop Front" });
      await pushAndWait(s, { key, projectId: p.id, language: "fr" }, { a: "1" });
      for (const [format, type, ext] of FORMATS) {
        const res = await pull({ project_id: p.id, language: "fr", format });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe(type);
        expect(res.headers.get("content-disposition")).toBe(`attachment; filename="shop-front.fr.${ext}"`);
        expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
        expect((await res.text()).length).toBeGreaterThan(0);
      }
      const v2 = await pull({ project_id: p.id, language: "fr", format: "xliff", xliff_version: "2.0" });
      expect(v2.status).toBe(200);
      expect(v2.headers.get("content-disposition")).toBe('attachment; filename="shop-front.fr.xlf"');
    });

    test("bom and xliff_version: unknown values → 400, ignored by formats they do not apply to", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await expectError(await pullFr({ bom: "yes" }), 400, "bom");
      await expectError(await pullFr({ format: "csv", bom: "1" }), 400, "bom");
      await expectError(await pullFr({ xliff_version: "2.1" }), 400, "xliff_version");
      await expectError(await pullFr({ format: "xliff", xliff_version: "1" }), 400, "xliff_version");
      const plain = await (await pullFr()).text();
      expect(await (await pullFr({ bom: "true", xliff_version: "2.0" })).text()).toBe(plain);
    });
  });

  describe("ETag", () => {
    test("If-None-Match with the current tag → 304 without a body; plain, weak and list forms", async () => {
      await pushAndWait(s, fr, { a: "1" });
      const etag = (await pullFr()).headers.get("etag") as string;
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, `"x",W/${etag}`, "*"]) {
        const res = await pullFr({}, { "if-none-match": inm });
        expect(res.status).toBe(304);
        expect(await res.text()).toBe("");
        expect(res.headers.get("etag")).toBe(etag);
        expectRateHeaders(res);
      }
      expect((await pullFr({}, { "if-none-match": '"other"' })).status).toBe(200);
    });

    test("a changed export gets a new tag and the old one no longer matches", async () => {
      await pushAndWait(s, fr, { a: "1" });
      const first = (await pullFr()).headers.get("etag") as string;
      expect((await pullFr()).headers.get("etag")).toBe(first);
      await pushAndWait(s, fr, { a: "2" });
      const res = await pullFr({}, { "if-none-match": first });
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).not.toBe(first);
      expect(await res.text()).toBe('{\n  "a": "2"\n}\n');
      // Another format of the same rows is another representation.
      expect((await pullFr({ format: "yaml" })).headers.get("etag")).not.toBe(res.headers.get("etag"));
    });
  });

  describe("selected_ids", () => {
    test("exports only the listed rows; other projects' and languages' ids are ignored", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2", c: "3" });
      await pushAndWait(s, { ...fr, language: "de" }, { a: "de" });
      const other = await s.seed.project(orgId);
      await pushAndWait(s, { key, projectId: other.id }, { z: "other" });
      const ids = await storedRows(s, projectId);
      const deA = (await storedRows(s, projectId, "de")).a?.id as string;
      const otherZ = (await storedRows(s, other.id)).z?.id as string;
      const selected = [
        ids.c?.id,
        ids.a?.id,
        deA,
        otherZ,
        crypto.randomUUID(),
        "not-a-uuid",
        "\u0000",
        ids.a?.id,
      ];
      const res = await pullFr({ selected_ids: JSON.stringify(selected) });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('{\n  "a": "1",\n  "c": "3"\n}\n');
    });

    test("[] or only foreign ids → 404; not a JSON array of strings → 400", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await expectError(await pullFr({ selected_ids: "[]" }), 404);
      await expectError(await pullFr({ selected_ids: JSON.stringify([crypto.randomUUID()]) }), 404);
      for (const bad of ["", "not json", '{"a":1}', '"id"', "[1]", '["a",null]', "[[]]", "null"]) {
        await expectError(await pullFr({ selected_ids: bad }), 400, "selected_ids");
      }
    });
  });

  describe("environment", () => {
    test("overrides replace values of keys the language has and never add keys", async () => {
      await pushAndWait(s, fr, { a: "1", b: "2" });
      const set = (environment: string, language: string, k: string, value: string) =>
        s.parlance.admin.setEnvironmentOverride({ projectId, environment, language, key: k, value });
      await set("staging", "fr", "a", "staging-a");
      await set("staging", "fr", "zzz", "never exported");
      await set("staging", "de", "b", "other language");
      await set("prod", "fr", "b", "prod-b");
      expect(await (await pullFr({ environment: "staging" })).text()).toBe(
        '{\n  "a": "staging-a",\n  "b": "2"\n}\n',
      );
      expect(await (await pullFr({ environment: "prod" })).text()).toBe(
        '{\n  "a": "1",\n  "b": "prod-b"\n}\n',
      );
      expect(await (await pullFr()).text()).toBe('{\n  "a": "1",\n  "b": "2"\n}\n');
      const ids = await storedRows(s, projectId);
      const only = await pullFr({ environment: "staging", selected_ids: JSON.stringify([ids.a?.id]) });
      expect(await only.text()).toBe('{\n  "a": "staging-a"\n}\n');
      // An environment with overrides for another language only: values unchanged.
      await set("qa", "de", "a", "x");
      expect(await (await pullFr({ environment: "qa" })).text()).toBe('{\n  "a": "1",\n  "b": "2"\n}\n');
    });

    test("an environment the project does not have → 400", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await expectError(await pullFr({ environment: "staging" }), 400, "staging");
      for (const environment of ["", "\u0000", "staging\u0000"]) {
        await expectError(await pullFr({ environment }), 400, "environment");
      }
      const other = await s.seed.project(orgId);
      await s.parlance.admin.setEnvironmentOverride({
        projectId: other.id,
        environment: "staging",
        language: "fr",
        key: "a",
        value: "x",
      });
      await expectError(await pullFr({ environment: "staging" }), 400, "staging");
    });
  });

  describe("errors", () => {
    test("language: missing or malformed → 400; not in the project, or no rows → 404", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await expectError(await pull({ project_id: projectId }), 400, "language");
      for (const language of ["", "f", "fr_FR", "fr-"]) {
        await expectError(await pull({ project_id: projectId, language }), 400, "language");
      }
      await expectError(await pull({ project_id: projectId, language: "es" }), 404);
      await expectError(await pull({ project_id: projectId, language: "FR" }), 404);
      await expectError(await pull({ project_id: projectId, language: "de" }), 404);
    });

    test("project_id: missing or not a UUID → 400; unknown, another organization's or deleted → 404", async () => {
      await pushAndWait(s, fr, { a: "1" });
      await expectError(await pull({ language: "fr" }), 400, "project_id");
      await expectError(await pull({ project_id: "abc", language: "fr" }), 400, "project_id");
      await expectError(await pull({ project_id: crypto.randomUUID(), language: "fr" }), 404);
      const stranger = await s.seed.world();
      await expectError(
        await pull({ project_id: projectId, language: "fr" }, { key: stranger.key.key }),
        404,
      );
      await s.parlance.admin.deleteProject(projectId);
      await expectError(await pull({ project_id: projectId, language: "fr" }), 404);
    });

    test("an unknown format → 400", async () => {
      await pushAndWait(s, fr, { a: "1" });
      for (const format of ["pdf", "JSON", "xlf", ""])
        await expectError(await pullFr({ format }), 400, "format");
    });

    test("needs export:read: 403 for any other scope set, 401 without a key", async () => {
      await pushAndWait(s, fr, { a: "1" });
      const without = await s.seed.key(orgId, { scopes: SCOPES.filter((x) => x !== "export:read") });
      await expectError(await pull({ project_id: projectId, language: "fr" }, { key: without.key }), 403);
      await expectError(await s.request(`/api/v1/pull?project_id=${projectId}&language=fr`), 401);
      const only = await s.seed.key(orgId, { scopes: ["export:read"] });
      expect((await pull({ project_id: projectId, language: "fr" }, { key: only.key })).status).toBe(200);
    });
  });

  describe("round trip", () => {
    test("pushing an export's JSON back changes nothing and the next export is byte-identical", async () => {
      await pushAndWait(s, fr, TRICKY);
      await pushAndWait(s, fr, { "x.y": "draft value" }, { status: "draft" });
      const before = await storedRows(s, projectId);
      const exported = await (await pullFr()).text();
      const job = await pushAndWait(s, fr, exported, { status: "approved" });
      // Only the draft row's status moves to the pushed status; no value changes.
      expect(job.summary).toEqual({ created: 0, updated: 1 });
      expect(await (await pullFr()).text()).toBe(exported);
      const again = await pushAndWait(s, fr, exported, { importMode: "replace" });
      expect(again.summary).toEqual({ created: 0, updated: 0, deleted: 0 });
      const after = await storedRows(s, projectId);
      for (const k of Object.keys(before)) expect(after[k]?.id).toBe(before[k]?.id as string);
      // Into a fresh project: the same file comes out.
      const copy = await s.seed.project(orgId);
      await pushAndWait(s, { key, projectId: copy.id }, exported);
      expect(await (await pull({ project_id: copy.id, language: "fr" })).text()).toBe(exported);
    });
  });
});

/**
 * Pull's ETag comes from the store's export version, not from the rendered file (so a 304 reads no
 * row). What that must keep true, on every store: through every path that changes data (push merge
 * and replace, workspace edit, bulk, key rename/delete/restore, revert, the operator's record set
 * and environment override, a language added, a project renamed), a tag never names two different
 * files of the same request, a file that changed gets a new tag (and the old one no longer gives
 * 304), and a file nothing touched keeps its tag.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ProjectView } from "../../core/index.ts";
import { forEachStore, type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { type SignedInClient, signedIn } from "../support/signed-in.ts";
import { pushAndWait, sendPush } from "../support/translation-io.ts";

type Json = Record<string, unknown>;

/** The requests watched: formats that read only their language, XLIFF (which reads the base too), options, an environment. */
const VARIANTS: Record<string, Record<string, string>> = {
  "fr.json": { language: "fr" },
  "fr.xliff": { language: "fr", format: "xliff" },
  "fr.xliff2": { language: "fr", format: "xliff", xliff_version: "2.0" },
  "fr.csv-bom": { language: "fr", format: "csv", bom: "true" },
  "fr.yaml": { language: "fr", format: "yaml" },
  "fr.xml.staging": { language: "fr", format: "xml", environment: "staging" },
  "en.json": { language: "en" },
  "de.json": { language: "de" },
};

interface Seen {
  etag: string;
  body: string;
}

await forEachStore((kind) => {
  let s: TestServer;
  let project: ProjectView;
  let key: SeededKey;
  let owner: SignedInClient;
  let ws: string;
  /** Every (tag, file) each variant answered so far, and its latest. */
  let history: Map<string, Seen[]>;

  beforeEach(async () => {
    s = await startTestServer(kind);
    const world = await s.seed.world();
    project = world.project;
    key = world.key;
    ws = `/api/workspace/projects/${project.id}`;
    owner = await signedIn(s, { orgId: world.orgId, role: "owner" });
    history = new Map();
    const to = (language: string) => ({ key: key.key, projectId: project.id, language });
    await pushAndWait(s, to("en"), { a: "A", b: "B", c: "C" });
    await pushAndWait(s, to("fr"), { a: "A-fr", b: "B-fr" });
    await pushAndWait(s, to("de"), { a: "A-de" });
    await s.parlance.admin.setEnvironmentOverride({
      projectId: project.id,
      environment: "staging",
      language: "fr",
      key: "a",
      value: "A-fr staging",
    });
  });
  afterEach(() => s.close());

  const pullOf = (variant: string, headers: Record<string, string> = {}) => {
    const q = new URLSearchParams({ project_id: project.id, ...VARIANTS[variant] });
    return s.request(`/api/v1/pull?${q}`, { key: key.key, headers });
  };

  /**
   * Pulls every variant; checks that no tag ever stood for two files, that the tag seen before
   * answers 304 exactly when it is still the tag, and returns which variants' files changed.
   */
  const observe = async (): Promise<{ changed: Set<string>; retagged: Set<string> }> => {
    const changed = new Set<string>();
    const retagged = new Set<string>();
    for (const variant of Object.keys(VARIANTS)) {
      const res = await pullOf(variant);
      expect(res.status).toBe(200);
      const now = { etag: res.headers.get("etag") as string, body: await res.text() };
      expect(now.etag).toMatch(/^"[^"]+"$/);
      const seen = history.get(variant) ?? [];
      for (const earlier of seen) if (earlier.etag === now.etag) expect(now.body).toBe(earlier.body);
      const last = seen.at(-1);
      if (last) {
        if (last.body !== now.body) changed.add(variant);
        if (last.etag !== now.etag) retagged.add(variant);
        const conditional = await pullOf(variant, { "if-none-match": last.etag });
        expect(conditional.status).toBe(last.etag === now.etag ? 304 : 200);
        if (conditional.status === 304) expect(await conditional.text()).toBe("");
        else expect(await conditional.text()).toBe(now.body);
      }
      expect((await pullOf(variant, { "if-none-match": now.etag })).status).toBe(304);
      history.set(variant, [...seen, now]);
    }
    return { changed, retagged };
  };

  /** After `step`: exactly `changed` have other files, and they, and only they (plus `alsoRetagged`), have other tags. */
  const expectStep = async (changed: string[], alsoRetagged: string[] = []) => {
    const seen = await observe();
    expect([...seen.changed].sort()).toEqual([...changed].sort());
    expect([...seen.retagged].sort()).toEqual([...new Set([...changed, ...alsoRetagged])].sort());
  };

  const FR = ["fr.json", "fr.xliff", "fr.xliff2", "fr.csv-bom", "fr.yaml", "fr.xml.staging"];
  const FR_XLIFF = ["fr.xliff", "fr.xliff2"];
  const put = (body: Json) => owner.fetch(`${ws}/records`, { method: "PUT", json: body });
  const post = (path: string, body: Json) => owner.fetch(`${ws}${path}`, { method: "POST", json: body });
  const ok = async (res: Promise<Response>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${r.status} ${await r.text()}`);
    return r;
  };

  test("every path that changes data changes the tag of what it changed, and of nothing else", async () => {
    await observe();
    // Nothing changed: pulling again, a push of what is there already, a dry run.
    await expectStep([]);
    await pushAndWait(s, { key: key.key, projectId: project.id }, { a: "A-fr", b: "B-fr" });
    expect(
      (await sendPush(s, { key: key.key, projectId: project.id }, { a: "x" }, { dryRun: true })).status,
    ).toBe(200);
    await expectStep([]);

    // Push, merge then replace.
    await pushAndWait(s, { key: key.key, projectId: project.id }, { c: "C-fr" });
    await expectStep(FR);
    await pushAndWait(
      s,
      { key: key.key, projectId: project.id },
      { a: "A-fr", b: "B-fr 2", c: "C-fr" },
      { importMode: "replace" },
    );
    await expectStep(FR);
    // The base language: its own file, and every XLIFF of the project (sources), nothing else.
    await pushAndWait(s, { key: key.key, projectId: project.id, language: "en" }, { b: "B 2" });
    await expectStep(["en.json", ...FR_XLIFF]);

    // Workspace: an edit, a bulk status change (only XLIFF writes statuses), a revert.
    const versionOf = async (k: string, language: string) => {
      const res = await ok(owner.fetch(`${ws}/records/history?key=${k}&language=${language}`));
      return ((await res.json()) as { data: { version: number }[] }).data[0]?.version;
    };
    await ok(put({ key: "c", language: "fr", value: "C-fr edited", version: await versionOf("c", "fr") }));
    await expectStep(FR);
    await ok(post("/records/bulk", { language: "fr", action: "status", status: "draft", keys: ["a"] }));
    await expectStep(
      FR_XLIFF,
      FR.filter((v) => !FR_XLIFF.includes(v)),
    );
    const entries = (await (await ok(owner.fetch(`${ws}/records/history?key=c&language=fr`))).json()) as {
      data: { id: string; version: number; action: string }[];
    };
    const imported = entries.data.find((e) => e.action === "import");
    await ok(
      post("/records/revert", {
        key: "c",
        language: "fr",
        entryId: imported?.id,
        version: entries.data[0]?.version,
      }),
    );
    await expectStep(FR);

    // The operator: a record, an environment override (only the pull naming it writes it).
    await s.parlance.admin.setRecord({ projectId: project.id, language: "de", key: "a", value: "A-de 2" });
    await expectStep(["de.json"]);
    await s.parlance.admin.setEnvironmentOverride({
      projectId: project.id,
      environment: "staging",
      language: "fr",
      key: "b",
      value: "B staging",
    });
    await expectStep(
      ["fr.xml.staging"],
      FR.filter((v) => v !== "fr.xml.staging"),
    );

    // Keys: rename, delete, restore, in every language at once.
    await ok(post("/keys/rename", { from: "c", to: "d" }));
    await expectStep([...FR, "en.json"]);
    await ok(post("/keys/delete", { keys: ["d"] }));
    await expectStep([...FR, "en.json"]);
    await ok(post("/keys/restore", { key: "d" }));
    await expectStep([...FR, "en.json"]);

    // The project: a new language (no file changes), a new name (XLIFF writes it).
    await ok(owner.fetch(ws, { method: "PATCH", json: { addLanguages: ["es"] } }));
    await expectStep([], Object.keys(VARIANTS));
    await ok(owner.fetch(ws, { method: "PATCH", json: { name: "Renamed" } }));
    await expectStep(FR_XLIFF, Object.keys(VARIANTS));
    await expectStep([]);
  });

  test("If-None-Match: * answers 304 only when the file exists; a 304 carries the tag and no body", async () => {
    const any = await pullOf("fr.json", { "if-none-match": "*" });
    expect(any.status).toBe(304);
    expect(any.headers.get("etag")).toBe((await pullOf("fr.json")).headers.get("etag"));
    const q = new URLSearchParams({ project_id: project.id, language: "fr", selected_ids: "[]" });
    const none = await s.request(`/api/v1/pull?${q}`, { key: key.key, headers: { "if-none-match": "*" } });
    expect(none.status).toBe(404);
  });
});

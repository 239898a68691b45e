/**
 * The records side of /api/workspace over HTTP on every store: browse, guarded edits (two people,
 * exactly one 412), role and language limits, bulk, history written by push, edit, bulk and the
 * operator's path, revert, activity, coverage, and checks on real ICU/i18next/printf/HTML samples.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ProjectView } from "../../core/index.ts";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import { checkWorkspaceConformance, type SignedInClient, signedIn } from "../support/signed-in.ts";

checkWorkspaceConformance();

type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;

const BASE = {
  greeting: "Hello {name}",
  inbox: "{count, plural, one {# message} other {# messages}}",
  "i18n.welcome": "Welcome, {{user}}!",
  "printf.files": "%d files in %s",
  "html.terms": "Read the <a>terms</a> first",
  plain: "Save",
  spaced: "Cancel ",
};

await forEachStore((kind) => {
  let s: TestServer;
  let orgId: string;
  let project: ProjectView;
  let path: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgId = (await s.seed.org("Acme")).id;
    project = await s.seed.project(orgId, { name: "Web", base: "en", languages: ["en", "fr", "de"] });
    path = `/api/workspace/projects/${project.id}`;
    const app = s.parlance.as(orgId, "ci");
    await app.push({ projectId: project.id, language: "en", content: JSON.stringify(BASE) });
    await s.idle();
    await app.push({
      projectId: project.id,
      language: "fr",
      status: "pending",
      content: JSON.stringify({
        greeting: "Bonjour",
        inbox: "{count, plural, one {# message} other {# messages}",
        "i18n.welcome": "Bienvenue, {{usr}} !",
        "printf.files": "%s fichiers dans %d",
        "html.terms": "Lisez les conditions",
        spaced: "Annuler",
      }),
    });
    await s.idle();
  });
  afterEach(() => s.close());

  const put = (who: SignedInClient, body: Json, headers: Record<string, string> = {}) =>
    who.fetch(`${path}/records`, { method: "PUT", json: body, headers });
  const browse = async (who: SignedInClient, query: string) => {
    const res = await who.fetch(`${path}/records?${query}`);
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    return (await res.json()) as {
      data: { key: string; base: Json | null; records: Record<string, Json | null> }[];
      nextCursor: string | null;
      counts: Json;
    };
  };

  test("browse: base beside the language, checks on real samples, filters, counts, cursor", async () => {
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const page = await browse(ana, "languages=fr");
    expect(page.data.map((r) => r.key)).toEqual([
      "greeting",
      "html.terms",
      "i18n.welcome",
      "inbox",
      "plain",
      "printf.files",
      "spaced",
    ]);
    const codes = (key: string) =>
      ((page.data.find((r) => r.key === key)?.records.fr?.warnings ?? []) as Json[]).map((w) => w.code);
    expect(codes("greeting")).toEqual(["placeholder-missing"]);
    expect(codes("inbox")).toEqual(["icu-syntax"]);
    expect(codes("i18n.welcome")).toEqual(["placeholder-missing", "placeholder-extra"]);
    expect(codes("printf.files")).toEqual(["placeholder-order"]);
    expect(codes("html.terms")).toEqual(["tag-missing", "tag-missing"]);
    expect(codes("spaced")).toEqual(["whitespace-trailing"]);
    expect(page.counts).toEqual({
      total: 7,
      missing: 1,
      draft: 0,
      pending: 6,
      needs_review: 0,
      approved: 0,
      warnings: 6,
    });
    expect(page.data[0]?.base).toMatchObject({
      key: "greeting",
      language: "en",
      value: "Hello {name}",
      version: 1,
      updatedBy: { kind: "app", name: "ci" },
    });

    expect((await browse(ana, "languages=fr&missing=true")).data.map((r) => r.key)).toEqual(["plain"]);
    expect((await browse(ana, "languages=fr&warnings=true&q=FILES")).data.map((r) => r.key)).toEqual([
      "printf.files",
    ]);
    expect((await browse(ana, "languages=fr&q=conditions")).data.map((r) => r.key)).toEqual(["html.terms"]);
    const first = await browse(ana, "languages=fr&limit=3");
    expect(first.data.length).toBe(3);
    const second = await browse(ana, `languages=fr&limit=3&cursor=${first.nextCursor}`);
    expect(second.data.map((r) => r.key)).toEqual(["inbox", "plain", "printf.files"]);
    const third = await browse(ana, `languages=fr&limit=3&cursor=${second.nextCursor}`);
    expect(third.data.map((r) => r.key)).toEqual(["spaced"]);
    expect(third.nextCursor).toBe(null);
    for (const bad of [
      "limit=0",
      "limit=501",
      "status=done",
      "missing=yes",
      "changedSince=yesterday",
      "changedSince=2026-02-30T00:00:00Z",
      "changedSince=2026-04-31T00:00:00Z",
      "changedSince=2026-01-01T24:00:00Z",
      "languages=xx",
      "cursor=!!",
    ]) {
      await expectErrorObject(await ana.fetch(`${path}/records?${bad}`), 400);
    }
    // A real leap day with an offset is read exactly: every row changed since 2000, none after 2100.
    const since = (at: string) => browse(ana, `languages=fr&changedSince=${encodeURIComponent(at)}`);
    expect((await since("2000-02-29T10:00:00+02:00")).data.length).toBeGreaterThan(0);
    expect((await since("2100-01-01T00:00:00Z")).data).toEqual([]);
  });

  test("edit: If-Match or version; two people on one version, exactly one 412 with current", async () => {
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const ben = await signedIn(s, { orgId, role: "translator" });
    const row = (await browse(ana, "languages=fr&q=greeting")).data[0]?.records.fr as Json;
    const [a, b] = await Promise.all([
      put(
        ana,
        { key: "greeting", language: "fr", value: "Bonjour {name}" },
        { "if-match": `"${row.id}.${row.version}"` },
      ),
      put(ben, { key: "greeting", language: "fr", value: "Salut {name}", version: row.version }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 412]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    const saved = (await json(won)).data as Json;
    expect(won.headers.get("etag")).toBe(`"${row.id}.2"`);
    expect(saved).toMatchObject({ version: 2, status: "pending", warnings: [] });
    const stale = await json(lost);
    expect(stale.error).toEqual(expect.any(String));
    expect(stale.current).toEqual(saved);
    await expectErrorObject(await put(ana, { key: "greeting", language: "fr", value: "x" }), 400);
    await expectErrorObject(
      await put(ana, { key: "greeting", language: "fr", value: "x" }, { "if-match": "W/nope" }),
      400,
    );
  });

  test("roles: a translator limited to fr gets 403 on de and on approving; a reviewer approves", async () => {
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    const rev = await signedIn(s, { orgId, role: "reviewer", languages: ["fr"] });
    await expectErrorObject(
      await put(ana, { key: "plain", language: "de", value: "Speichern", version: 0 }),
      403,
    );
    await expectErrorObject(
      await put(ana, { key: "plain", language: "fr", status: "approved", version: 0 }),
      403,
    );
    const created = await put(ana, { key: "plain", language: "fr", value: "Enregistrer", version: 0 });
    expect(created.status).toBe(200);
    const approved = await put(rev, { key: "plain", language: "fr", status: "approved", version: 1 });
    expect(((await json(approved)).data as Json).status).toBe("approved");
    await expectErrorObject(await put(rev, { key: "plain", language: "de", value: "x", version: 0 }), 403);
    // Another organization's member sees nothing of this project.
    const stranger = await signedIn(s, { role: "owner" });
    await expectErrorObject(await stranger.fetch(`${path}/records`), 404);
    await expectErrorObject(
      await put(stranger, { key: "plain", language: "fr", value: "x", version: 2 }),
      404,
    );
  });

  test("history by push, edit, bulk and operator; revert; activity has one item per action", async () => {
    const rev = await signedIn(s, { orgId, role: "reviewer" });
    await put(rev, { key: "greeting", language: "fr", value: "Bonjour {name}", version: 1 });
    const bulk = await rev.fetch(`${path}/records/bulk`, {
      method: "POST",
      json: { language: "fr", action: "status", status: "approved", filter: { q: "greeting" } },
    });
    expect((await json(bulk)).data).toEqual({ changed: 1 });
    await s.parlance.admin.setRecord({
      projectId: project.id,
      language: "fr",
      key: "greeting",
      status: "needs_review",
    });
    const history = await json(await rev.fetch(`${path}/records/history?key=greeting&language=fr`));
    const entries = history.data as Json[];
    expect(entries.map((e) => [e.action, (e.actor as Json).kind, (e.new as Json).status, e.version])).toEqual(
      [
        ["edit", "operator", "needs_review", 4],
        ["bulk", "user", "approved", 3],
        ["edit", "user", "pending", 2],
        ["import", "app", "pending", 1],
      ],
    );
    expect(entries[3]).toMatchObject({
      old: null,
      new: { value: "Bonjour", status: "pending" },
      jobId: expect.any(String),
    });
    const stale = await rev.fetch(`${path}/records/revert`, {
      method: "POST",
      json: { key: "greeting", language: "fr", entryId: entries[3]?.id, version: 3 },
    });
    expect(stale.status).toBe(412);
    expect(((await json(stale)).current as Json).version).toBe(4);
    const reverted = await rev.fetch(`${path}/records/revert`, {
      method: "POST",
      json: { key: "greeting", language: "fr", entryId: entries[3]?.id, version: 4 },
    });
    expect((await json(reverted)).data).toMatchObject({ value: "Bonjour", status: "pending", version: 5 });
    const activity = await json(await rev.fetch(`${path}/activity?limit=10`));
    expect((activity.data as Json[]).map((a) => a.action)).toEqual([
      "revert",
      "edit",
      "bulk",
      "edit",
      "import",
      "import",
    ]);
    expect((activity.data as Json[])[4]).toMatchObject({
      language: "fr",
      detail: { created: 6, updated: 0 },
    });
    const coverage = await json(await rev.fetch(`${path}/coverage`));
    expect((coverage.data as Json[]).find((c) => c.language === "fr")).toEqual({
      language: "fr",
      referenceKeys: 7,
      missing: 1,
      draft: 0,
      pending: 6,
      needs_review: 0,
      approved: 0,
      warnings: 6,
    });
  });

  test("keys: add, rename, delete and restore by role over HTTP", async () => {
    const dev = await signedIn(s, { orgId, role: "developer" });
    const admin = await signedIn(s, { orgId, role: "admin" });
    const ana = await signedIn(s, { orgId, role: "translator" });
    const post = (who: SignedInClient, sub: string, body: Json) =>
      who.fetch(`${path}/keys${sub}`, { method: "POST", json: body });
    await expectErrorObject(await post(ana, "", { key: "new.key" }), 403);
    expect((await post(dev, "", { key: "new.key", baseValue: "New" })).status).toBe(201);
    await expectErrorObject(await post(dev, "", { key: "new.key" }), 409);
    await expectErrorObject(await post(dev, "", { key: "bad..key" }), 400);
    expect((await json(await post(dev, "/rename", { from: "greeting", to: "hello" }))).data).toEqual({
      key: "hello",
      records: 2,
    });
    await expectErrorObject(await post(dev, "/rename", { from: "hello", to: "plain" }), 409);
    await expectErrorObject(await post(dev, "/rename", { from: "nope", to: "x" }), 404);
    expect((await json(await post(dev, "/delete", { keys: ["hello"] }))).data).toEqual({ deleted: 2 });
    expect((await browse(dev, "languages=fr&q=hello")).data).toEqual([]);
    await expectErrorObject(await dev.fetch(`${path}/keys/deleted`), 403);
    const deleted = await json(await admin.fetch(`${path}/keys/deleted`));
    expect((deleted.data as Json[]).map((d) => d.key)).toEqual(["hello"]);
    await expectErrorObject(await post(dev, "/restore", { key: "hello" }), 403);
    expect((await json(await post(admin, "/restore", { key: "hello" }))).data).toEqual({
      key: "hello",
      records: 2,
    });
    const history = await json(await admin.fetch(`${path}/records/history?key=hello&language=fr`));
    expect((history.data as Json[]).map((e) => e.action)).toEqual([
      "key.restore",
      "key.delete",
      "key.rename",
      "import",
    ]);
  });

  test("the organization's quota counts the workspace's new records too: 402, and nothing written", async () => {
    const owner = await signedIn(s, { orgId, role: "owner" });
    const rows = () => s.parlance.storage.translations.countByOrg(orgId);
    expect(await rows()).toBe(13);
    await s.parlance.admin.setQuota(orgId, 13);
    const post = (sub: string, body: Json) => owner.fetch(`${path}${sub}`, { method: "POST", json: body });
    const refusals = [
      await put(owner, { key: "greeting", language: "de", value: "Hallo {name}", version: 0 }),
      await post("/keys", { key: "new.key", baseValue: "New" }),
      await post("/records/bulk", { action: "copy-base", language: "de", keys: ["plain"] }),
    ];
    for (const refused of refusals) {
      await expectErrorObject(refused, 402, {
        message:
          "Translation quota exceeded: this would leave 14 translations, the organization's quota is 13",
      });
    }
    expect(await rows()).toBe(13);
    // Changing a record adds none; deleting makes room, and a restore counts what it brings back.
    expect(
      (await put(owner, { key: "greeting", language: "fr", value: "Salut {name}", version: 1 })).status,
    ).toBe(200);
    expect((await post("/keys/delete", { keys: ["greeting"] })).status).toBe(200);
    expect((await post("/keys", { key: "new.key", baseValue: "New" })).status).toBe(201);
    expect(await rows()).toBe(12);
    await expectErrorObject(await post("/keys/restore", { key: "greeting" }), 402, {
      message: "this would leave 14 translations",
    });
    expect(await rows()).toBe(12);
    // A key that exists again is the 409 it always was, whatever the quota says.
    expect((await post("/keys", { key: "greeting", baseValue: "Hi" })).status).toBe(201);
    await expectErrorObject(await post("/keys/restore", { key: "greeting" }), 409);
  });

  test("a push through /api/v1 with an API key: history names the key and the job; versions grow", async () => {
    const key = await s.seed.key(orgId, { name: "ci-key" });
    const res = await s.request("/api/v1/push", {
      method: "POST",
      key: key.key,
      json: {
        projectId: project.id,
        language: "fr",
        content: JSON.stringify({ greeting: "Bonjour {name}" }),
      },
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    await s.idle();
    const rev = await signedIn(s, { orgId, role: "reviewer" });
    const history = await json(await rev.fetch(`${path}/records/history?key=greeting&language=fr`));
    expect((history.data as Json[])[0]).toMatchObject({
      action: "import",
      actor: { kind: "api_key", id: key.id, name: "ci-key" },
      jobId,
      old: { value: "Bonjour", status: "pending" },
      new: { value: "Bonjour {name}", status: "approved" },
      version: 2,
    });
    const page = await browse(rev, "languages=fr&q=greeting");
    expect(page.data[0]?.records.fr).toMatchObject({
      version: 2,
      warnings: [],
      updatedBy: { kind: "api_key", name: "ci-key" },
    });
    const feed = await json(await rev.fetch(`${path}/activity?limit=1`));
    expect((feed.data as Json[])[0]).toMatchObject({
      action: "import",
      jobId,
      detail: { created: 0, updated: 1 },
    });
  });

  test("a cross-origin write is refused and changes nothing", async () => {
    const ana = await signedIn(s, { orgId, role: "translator" });
    const res = await ana.fetch(`${path}/records`, {
      method: "PUT",
      json: { key: "plain", language: "fr", value: "x", version: 0 },
      origin: "https://evil.example",
    });
    await expectErrorObject(res, 403);
    expect((await browse(ana, "languages=fr&missing=true")).data.map((r) => r.key)).toEqual(["plain"]);
  });
});

/**
 * GET /api/v1/translations (CONTRACT §5 extension, §11): the read-only listing that tells clients
 * the identifiers `selected_ids` takes.
 */
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, type TestServer, useWorld } from "../support/harness.ts";
import { expectError, type PushTarget, pushAndWait, storedRows } from "../support/translation-io.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Listing {
  success: boolean;
  data: { id: string; key: string; language: string; value: string; status: string; updatedAt: string }[];
  pagination: { total: number; limit: number; offset: number };
}

await forEachStore((kind) => {
  let s: TestServer, orgId: string, projectId: string, key: string, fr: PushTarget;
  useWorld(kind, (w) => ({ s, orgId, projectId, key, fr } = w));

  const list = (params: Record<string, string>, k = key) =>
    s.request(`/api/v1/translations?${new URLSearchParams(params)}`, { key: k });
  const listFr = async (extra: Record<string, string> = {}): Promise<Listing> => {
    const res = await list({ project_id: projectId, language: "fr", ...extra });
    expect(res.status).toBe(200);
    return (await res.json()) as Listing;
  };

  test("exact shape, keys in code-point order", async () => {
    await pushAndWait(s, fr, { b: "2", "😀": "astral", "\uFFFD": "fffd", "10": "ten", "2": "two", B: "B" });
    s.clock.advance(60_000);
    await pushAndWait(s, fr, { a: "1" }, { status: "draft" });
    await pushAndWait(s, { ...fr, language: "de" }, { a: "de" });
    const ids = await storedRows(s, projectId);
    const row = (k: string, value: string, status: string, updatedAt: string) => ({
      id: ids[k]?.id as string,
      key: k,
      language: "fr",
      value,
      status,
      updatedAt,
    });
    const t0 = "2026-06-01T12:00:00.000Z";
    const t1 = "2026-06-01T12:01:00.000Z";
    const body = await listFr();
    expect(body).toEqual({
      success: true,
      data: [
        row("10", "ten", "approved", t0),
        row("2", "two", "approved", t0),
        row("B", "B", "approved", t0),
        row("a", "1", "draft", t1),
        row("b", "2", "approved", t0),
        row("\uFFFD", "fffd", "approved", t0),
        row("😀", "astral", "approved", t0),
      ],
      pagination: { total: 7, limit: 100, offset: 0 },
    });
    for (const r of body.data) expect(r.id).toMatch(UUID);
  });

  test("an update moves updatedAt; an unchanged row keeps it", async () => {
    await pushAndWait(s, fr, { a: "1", b: "2" });
    s.clock.advance(3_600_000);
    await pushAndWait(s, fr, { a: "1", b: "changed" });
    const body = await listFr();
    const at = Object.fromEntries(body.data.map((r) => [r.key, Date.parse(r.updatedAt)]));
    expect(at).toEqual({
      a: Date.parse("2026-06-01T12:00:00.000Z"),
      b: Date.parse("2026-06-01T13:00:00.000Z"),
    });
  });

  test("limit 1..1000 (default 100), offset ≥ 0, total counts the whole language", async () => {
    const content = Object.fromEntries(
      Array.from({ length: 1205 }, (_, i) => [`k${String(i).padStart(4, "0")}`, "v"]),
    );
    await pushAndWait(s, fr, content);
    const first = await listFr();
    expect(first.data.length).toBe(100);
    expect(first.pagination).toEqual({ total: 1205, limit: 100, offset: 0 });
    expect(first.data[0]?.key).toBe("k0000");
    const page = await listFr({ limit: "10", offset: "995" });
    expect(page.pagination).toEqual({ total: 1205, limit: 10, offset: 995 });
    expect(page.data.map((r) => r.key)).toEqual(
      Array.from({ length: 10 }, (_, i) => `k${String(995 + i).padStart(4, "0")}`),
    );
    const max = await listFr({ limit: "1000", offset: "1000" });
    expect(max.data.length).toBe(205);
    expect(max.data[0]?.key).toBe("k1000");
    expect((await listFr({ limit: "1000" })).data.length).toBe(1000);
    expect((await listFr({ limit: "1" })).data.map((r) => r.key)).toEqual(["k0000"]);
    const past = await listFr({ offset: "5000" });
    expect(past).toEqual({ success: true, data: [], pagination: { total: 1205, limit: 100, offset: 5000 } });
    for (const limit of ["0", "1001", "-1", "abc", "1.5", ""]) {
      await expectError(await list({ project_id: projectId, language: "fr", limit }), 400, "limit");
    }
    for (const offset of ["-1", "x", "0.5"]) {
      await expectError(await list({ project_id: projectId, language: "fr", offset }), 400, "offset");
    }
  });

  test("a language the project has but without rows: empty page", async () => {
    expect(await listFr()).toEqual({
      success: true,
      data: [],
      pagination: { total: 0, limit: 100, offset: 0 },
    });
  });

  test("language: missing or malformed → 400; well-formed but not the project's → 404", async () => {
    await expectError(await list({ project_id: projectId }), 400, "language");
    for (const language of ["", "f", "fr_FR", "fr-"]) {
      await expectError(await list({ project_id: projectId, language }), 400, "language");
    }
    await expectError(await list({ project_id: projectId, language: "es" }), 404);
    await expectError(await list({ project_id: projectId, language: "FR" }), 404);
  });

  test("project_id: missing or not a UUID → 400; unknown, another organization's or deleted → 404", async () => {
    await expectError(await list({ language: "fr" }), 400, "project_id");
    await expectError(await list({ project_id: "x", language: "fr" }), 400, "project_id");
    await expectError(await list({ project_id: crypto.randomUUID(), language: "fr" }), 404);
    const stranger = await s.seed.world();
    await expectError(await list({ project_id: projectId, language: "fr" }, stranger.key.key), 404);
    await s.parlance.admin.deleteProject(projectId);
    await expectError(await list({ project_id: projectId, language: "fr" }), 404);
  });

  test("needs translations:read: 403 for any other scope set, 401 without a key", async () => {
    const without = await s.seed.key(orgId, { scopes: SCOPES.filter((x) => x !== "translations:read") });
    await expectError(await list({ project_id: projectId, language: "fr" }, without.key), 403);
    await expectError(await s.request(`/api/v1/translations?project_id=${projectId}&language=fr`), 401);
  });

  test("read-only: other methods → 405", async () => {
    const res = await s.request(`/api/v1/translations?project_id=${projectId}&language=fr`, {
      method: "POST",
      key,
      json: {},
    });
    await expectError(res, 405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

/**
 * On a SQLite file (as `parlance serve` runs), an XLIFF pull of a whole language reads its rows
 * page by page on the export connection while the file is sent: the bytes are those of the whole
 * render (sources paired across pages, a key the base lacks has an empty source, an environment's
 * overrides applied), a language without rows is still a 404 before any byte, and a pull the
 * client drops ends (its read's transaction is tested in test/storage/sqlite-export-stream.test.ts).
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { compareCodePoints } from "../../core/code-point.ts";
import { FORMATTERS } from "../../core/formats/index.ts";
import type { ProjectView } from "../../core/index.ts";
import { type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { expectError, pushAndWait } from "../support/translation-io.ts";

/** Several pages of the export stream (1,000 rows each) and several 64 Ki pieces. */
const KEYS = 2500;
const keyOf = (i: number) => `k.${String(i).padStart(4, "0")}${i % 9 === 0 ? ".é" : ""}`;
const textOf = (lang: string, i: number) => `${lang} ${i} & <b>${"x".repeat(40)}</b>${i % 13 ? "" : "\r\n"}`;

let s: TestServer;
let project: ProjectView;
let key: SeededKey;
const en: Record<string, string> = {};
const fr: Record<string, string> = {};
for (let i = 0; i < KEYS; i++) {
  // The base lacks one key in seven, and has keys fr lacks (one in eleven): pairing across pages.
  if (i % 7 !== 0) en[keyOf(i)] = textOf("en", i);
  if (i % 11 !== 0) fr[keyOf(i)] = textOf("fr", i);
}

beforeEach(async () => {
  s = await startTestServer("sqlite", { sqliteFile: true });
  const world = await s.seed.world();
  project = world.project;
  key = world.key;
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "en" }, en);
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "fr" }, fr, { status: "pending" });
});
afterEach(() => s.close());

const pull = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  s.request(`/api/v1/pull?${new URLSearchParams({ project_id: project.id, format: "xliff", ...query })}`, {
    key: key.key,
    headers,
  });

/** The formatter's whole render of `values` (fr, pending), sources from `en`. */
const expected = (values: Record<string, string>, options = {}) =>
  FORMATTERS.get("xliff")?.render({
    project: { ...project, orgId: "", deletedAt: null, createdAt: "" },
    language: "fr",
    rows: Object.keys(values)
      .sort(compareCodePoints)
      .map((k) => ({ key: k, value: values[k] as string, status: "pending" as const })),
    sources: new Map(Object.entries(en)),
    options: { bom: false, xliffVersion: "1.2", ...options },
  });

test("XLIFF 1.2 and 2.0 stream the bytes of the whole render", async () => {
  for (const version of ["1.2", "2.0"] as const) {
    const res = await pull({ language: "fr", xliff_version: version });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    expect(await res.text()).toBe(expected(fr, { xliffVersion: version }) as string);
  }
});

test("an environment's overrides apply to the paged rows", async () => {
  await s.parlance.admin.setEnvironmentOverride({
    projectId: project.id,
    environment: "staging",
    language: "fr",
    key: keyOf(1500),
    value: "staging value",
  });
  const res = await pull({ language: "fr", environment: "staging" });
  expect(await res.text()).toBe(expected({ ...fr, [keyOf(1500)]: "staging value" }) as string);
});

test("a language without rows is a 404, and the next pull still streams", async () => {
  await expectError(await pull({ language: "de" }), 404, "No translations found");
  expect(await (await pull({ language: "fr" })).text()).toBe(expected(fr) as string);
});

test("a pull dropped after its first piece ends; the next gets the whole file", async () => {
  const dropped = await pull({ language: "fr" });
  const reader = dropped.body?.getReader();
  expect((await reader?.read())?.done).toBe(false);
  await reader?.cancel();
  expect(await (await pull({ language: "fr" })).text()).toBe(expected(fr) as string);
});

test("a 304 for If-None-Match: * ends the read it opened to know the file exists", async () => {
  const res = await pull({ language: "fr" }, { "if-none-match": "*" });
  expect(res.status).toBe(304);
  // A commit after the pull's snapshot: a log reset must wait for any reader still holding it.
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "fr" }, { [keyOf(1)]: "changed" });
  const other = new Database(s.sqlitePath as string);
  try {
    expect(other.query("PRAGMA wal_checkpoint(TRUNCATE)").get()).toMatchObject({ busy: 0 });
  } finally {
    other.close();
  }
});

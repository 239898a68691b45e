/**
 * On a SQLite file (as `parlance serve` runs), an XLIFF pull of a whole language reads its rows
 * page by page on the export connection while the file is sent: the bytes are those of the whole
 * render (sources paired across pages, a key the base lacks has an empty source, an environment's
 * overrides applied), a language without rows is still a 404 before any byte, and a pull the
 * client drops ends (its read's transaction is tested in test/storage/sqlite-export-stream.test.ts).
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ProjectView } from "../../core/index.ts";
import { type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { expectError, pushAndWait } from "../support/translation-io.ts";
import { keyOf, pullXliff, seedPair, wholeXliff, xliffContent } from "../support/xliff-pull.ts";

/** Several pages of the export stream (1,000 rows each) and several 64 Ki pieces. */
const KEYS = 2500;

let s: TestServer;
let project: ProjectView;
let key: SeededKey;
// The base lacks one key in seven, and has keys fr lacks (one in eleven): pairing across pages.
const { en, fr } = xliffContent(KEYS);

beforeEach(async () => {
  s = await startTestServer("sqlite", { sqliteFile: true });
  ({ project, key } = await seedPair(s, en, fr));
});
afterEach(() => s.close());

const pull = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  pullXliff(s, project.id, key.key, query, headers);

/** The formatter's whole render of `values` (fr, pending), sources from `en`. */
const expected = (values: Record<string, string>, options = {}) => wholeXliff(project, en, values, options);

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

/**
 * On Postgres, an XLIFF pull of a whole language renders its rows in pages as the store reads them
 * (`pagesForExportWithSource`): the bytes are those of the whole render (sources paired by key, a
 * key the base lacks has an empty source, keys in code-point order where UTF-16 order differs, an
 * environment's overrides applied), a language without rows is still a 404 before any byte, and a
 * pull the client drops leaves the store usable.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ProjectView } from "../../core/index.ts";
import { postgresReachable } from "../storage/postgres-setup.ts";
import { type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { expectError } from "../support/translation-io.ts";
import { keyOf, pullXliff, seedPair, wholeXliff, xliffContent } from "../support/xliff-pull.ts";

/** Several pages of the store's read (500 rows each) and several 64 Ki pieces. */
const KEYS = 1600;
/** In code-point order (the export's); UTF-16 order puts the astral key before U+E000. */
const HIGH = ["z.a", "z.\uE000", "z.\uFFFD", "z.😀"];

// The base lacks one key in seven, and has keys fr lacks (one in eleven): pairing across pages.
const { en, fr } = xliffContent(KEYS);
for (const k of HIGH) {
  en[k] = `en ${k}`;
  fr[k] = `fr ${k}`;
}

const reachable = await postgresReachable();
let s: TestServer;
let project: ProjectView;
let key: SeededKey;

beforeEach(async () => {
  if (!reachable) return;
  s = await startTestServer("postgres");
  ({ project, key } = await seedPair(s, en, fr));
});
afterEach(() => (reachable ? s.close() : undefined));

const pull = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  pullXliff(s, project.id, key.key, query, headers);

/** The formatter's whole render of `values` (fr, pending), sources from `en`. */
const expected = (values: Record<string, string>, options = {}) => wholeXliff(project, en, values, options);

test.skipIf(!reachable)("XLIFF 1.2 and 2.0 stream the bytes of the whole render", async () => {
  for (const version of ["1.2", "2.0"] as const) {
    const res = await pull({ language: "fr", xliff_version: version });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    const text = await res.text();
    expect(text).toBe(expected(fr, { xliffVersion: version }) as string);
    // The keys that sort differently in UTF-16, in code-point order (the expected render's).
    const at = HIGH.map((k) => text.indexOf(`name="${k}"`));
    expect(at.every((p, i) => p > 0 && (i === 0 || p > (at[i - 1] as number)))).toBe(true);
  }
});

test.skipIf(!reachable)(
  "a pull of selected records (the join, read whole) writes the same units",
  async () => {
    const rows: { id: string; key: string }[] = [];
    for (let offset = 0; offset < KEYS; offset += 1000) {
      const query = { project_id: project.id, language: "fr", limit: "1000", offset: String(offset) };
      const res = await s.request(`/api/v1/translations?${new URLSearchParams(query)}`, { key: key.key });
      rows.push(...((await res.json()) as { data: { id: string; key: string }[] }).data);
    }
    // A URI holds about a hundred ids: every twentieth key, and the high ones.
    const chosen = rows.filter((r, i) => i % 20 === 0 || HIGH.includes(r.key));
    const selected = await pull({ language: "fr", selected_ids: JSON.stringify(chosen.map((r) => r.id)) });
    const values = Object.fromEntries(chosen.map((r) => [r.key, fr[r.key] as string]));
    expect(await selected.text()).toBe(expected(values) as string);
  },
);

test.skipIf(!reachable)("an environment's overrides apply to the paged rows", async () => {
  await s.parlance.admin.setEnvironmentOverride({
    projectId: project.id,
    environment: "staging",
    language: "fr",
    key: keyOf(1200),
    value: "staging value",
  });
  const res = await pull({ language: "fr", environment: "staging" });
  expect(await res.text()).toBe(expected({ ...fr, [keyOf(1200)]: "staging value" }) as string);
});

test.skipIf(!reachable)("a language without rows is a 404, and the next pull still streams", async () => {
  await expectError(await pull({ language: "de" }), 404, "No translations found");
  expect(await (await pull({ language: "fr" })).text()).toBe(expected(fr) as string);
});

test.skipIf(!reachable)(
  "a pull dropped after its first piece ends; the next gets the whole file",
  async () => {
    const dropped = await pull({ language: "fr" });
    const reader = dropped.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    await reader?.cancel();
    expect(await (await pull({ language: "fr" })).text()).toBe(expected(fr) as string);
  },
);

/**
 * Large pulls stream (no Content-Length, pieces written as the connection takes them) and carry
 * the same bytes as the formatter's whole render of the same rows, on every store: XLIFF's sources
 * read along with the rows (a key the base lacks has an empty source), selected_ids and an
 * environment included. A file of one piece is sent whole, with its length.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { compareCodePoints } from "../../core/code-point.ts";
import { FORMATTERS } from "../../core/formats/index.ts";
import type { ProjectView } from "../../core/index.ts";
import {
  forEachStore,
  type SeededKey,
  type StoreKind,
  startTestServer,
  type TestServer,
} from "../support/harness.ts";
import { pushAndWait, storedRows } from "../support/translation-io.ts";
import { seedPair } from "../support/xliff-pull.ts";

/** Past one 64 Ki piece in every format: 3,000 keys of about 100 characters. */
const KEYS = 3000;
const keyOf = (i: number) => `screen.${String(i).padStart(4, "0")}.${i % 7 === 0 ? "ü" : "label"}`;
const textOf = (lang: string, i: number) =>
  `${lang} ${i}: ${"text & <markup> \"quoted\" 'single' ".repeat(3)}${i % 11 === 0 ? "\n\ttab" : ""}`;

// Pieces encoded here (Deno, embedders by default) and pieces as text (Bun's own server, or an
// embedder that sets ServerOptions.textChunks): the same bytes.
for (const textChunks of [false, true])
  await forEachStore((kind) =>
    describe(textChunks ? "pieces as text" : "pieces encoded", () => suite(kind, textChunks)),
  );

function suite(kind: StoreKind, textChunks: boolean): void {
  let s: TestServer;
  let project: ProjectView;
  let key: SeededKey;
  const en: Record<string, string> = {};
  const fr: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) {
    // The base lacks one key in five: its XLIFF source is empty.
    if (i % 5 !== 0) en[keyOf(i)] = textOf("en", i);
    fr[keyOf(i)] = textOf("fr", i);
  }

  beforeEach(async () => {
    s = await startTestServer(kind, { textChunks });
    ({ project, key } = await seedPair(s, en, fr));
  });
  afterEach(() => s.close());

  const pull = (query: Record<string, string>) =>
    s.request(`/api/v1/pull?${new URLSearchParams({ project_id: project.id, ...query })}`, { key: key.key });

  /** The formatter's whole render of `values` (fr, pending), sources from `en`. */
  const expected = (format: string, values: Record<string, string>, options = {}) => {
    const formatter = FORMATTERS.get(format);
    if (!formatter) throw new Error(format);
    const rows = Object.keys(values)
      .sort(compareCodePoints)
      .map((k) => ({ id: "", key: k, value: values[k] as string, status: "pending" as const }));
    return formatter.render({
      project: { ...project, orgId: "", deletedAt: null, createdAt: "" },
      language: "fr",
      rows,
      sources: new Map(Object.entries(en)),
      options: { bom: false, xliffVersion: "1.2", ...options },
    });
  };

  test("every format streams the bytes of its whole render", async () => {
    const cases: [Record<string, string>, string, object][] = [
      ...[...FORMATTERS.keys()].map((f): [Record<string, string>, string, object] => [{ format: f }, f, {}]),
      [{ format: "xliff", xliff_version: "2.0" }, "xliff", { xliffVersion: "2.0" }],
      [{ format: "csv", bom: "true" }, "csv", { bom: true }],
    ];
    for (const [query, format, options] of cases) {
      const res = await pull({ language: "fr", ...query });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBeNull();
      // Decoded as is: text() would drop csv's byte order mark.
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
      expect(text).toBe(expected(format, fr, options));
    }
  });

  test("selected_ids and an environment stream the same rows as they render", async () => {
    const ids = await storedRows(s, project.id, "fr");
    // Every 25th key: the ids fit the 8 Ki request target.
    const chosen = Object.keys(fr).filter((_, i) => i % 25 === 0);
    await s.parlance.admin.setEnvironmentOverride({
      projectId: project.id,
      environment: "staging",
      language: "fr",
      key: keyOf(50),
      value: "staging value",
    });
    const selected = JSON.stringify(chosen.map((k) => ids[k]?.id));
    const res = await pull({
      language: "fr",
      format: "xliff",
      selected_ids: selected,
      environment: "staging",
    });
    const values = Object.fromEntries(chosen.map((k) => [k, fr[k] as string]));
    values[keyOf(50)] = "staging value";
    expect(await res.text()).toBe(expected("xliff", values));
  });

  test("a small file is sent whole, with its length", async () => {
    expect((await pull({ language: "de" })).status).toBe(404);
    await pushAndWait(s, { key: key.key, projectId: project.id, language: "de" }, { a: "A" });
    const small = await pull({ language: "de" });
    expect(small.headers.get("content-length")).toBe(String('{\n  "a": "A"\n}\n'.length));
    expect(await small.text()).toBe('{\n  "a": "A"\n}\n');
  });
}

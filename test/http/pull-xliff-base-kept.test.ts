/**
 * On a SQLite file, the base language's rows kept between XLIFF pulls (storage/sqlite/base-cache.ts)
 * never change the bytes: a pull right after the base changed, the pull after its rows were kept,
 * and a pull after the next change all give the whole render of the rows as they are.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ProjectView } from "../../core/index.ts";
import { type SeededKey, startTestServer, type TestServer } from "../support/harness.ts";
import { pushAndWait } from "../support/translation-io.ts";
import { keyOf, pullXliff, seedPair, wholeXliff, xliffContent } from "../support/xliff-pull.ts";

/** Several pages of the export stream (1,000 rows) and of the base's fill (2,500). */
const KEYS = 5200;

let s: TestServer;
let project: ProjectView;
let key: SeededKey;
const { en, fr } = xliffContent(KEYS);

beforeEach(async () => {
  s = await startTestServer("sqlite", { sqliteFile: true });
  ({ project, key } = await seedPair(s, en, fr));
});
afterEach(() => s.close());

const pulled = async (version: "1.2" | "2.0") =>
  (await pullXliff(s, project.id, key.key, { language: "fr", xliff_version: version })).text();
/** Time for the fill a pull that missed leaves behind (a page a turn). */
const settle = () => Bun.sleep(60);

test("XLIFF 1.2 and 2.0 give the same bytes before and after the base is kept, and after it changes", async () => {
  for (const version of ["1.2", "2.0"] as const) {
    const expected = wholeXliff(project, en, fr, { xliffVersion: version }) as string;
    expect(await pulled(version)).toBe(expected);
    await settle();
    expect(await pulled(version)).toBe(expected);
  }
  const base = { ...en, [keyOf(1)]: "base changed", [keyOf(4900)]: "late key & <b>" };
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "en" }, base);
  for (const version of ["1.2", "2.0"] as const) {
    const expected = wholeXliff(project, base, fr, { xliffVersion: version }) as string;
    expect(await pulled(version)).toBe(expected);
    await settle();
    expect(await pulled(version)).toBe(expected);
  }
});

test("a change to the translation alone keeps the base, and the pull shows the change", async () => {
  expect(await pulled("1.2")).toBe(wholeXliff(project, en, fr) as string);
  await settle();
  await pushAndWait(
    s,
    { key: key.key, projectId: project.id, language: "fr" },
    { [keyOf(2)]: "fr changed" },
    {
      status: "pending",
    },
  );
  expect(await pulled("1.2")).toBe(wholeXliff(project, en, { ...fr, [keyOf(2)]: "fr changed" }) as string);
});

/**
 * What the paged XLIFF pull tests (SQLite and Postgres) share: their content (keys over several
 * pages, a base lacking some keys and holding others), the pull request, and the bytes a whole
 * render of the same rows gives.
 */
import { compareCodePoints } from "../../core/code-point.ts";
import { FORMATTERS } from "../../core/formats/index.ts";
import type { ProjectView } from "../../core/index.ts";
import type { SeededKey, TestServer } from "./harness.ts";
import { pushAndWait } from "./translation-io.ts";

export const keyOf = (i: number) => `k.${String(i).padStart(4, "0")}${i % 9 === 0 ? ".é" : ""}`;
const textOf = (lang: string, i: number) => `${lang} ${i} & <b>${"x".repeat(40)}</b>${i % 13 ? "" : "\r\n"}`;

/** `keys` keys: the base lacks one in seven, and has keys fr lacks (one in eleven). */
export function xliffContent(keys: number): { en: Record<string, string>; fr: Record<string, string> } {
  const en: Record<string, string> = {};
  const fr: Record<string, string> = {};
  for (let i = 0; i < keys; i++) {
    if (i % 7 !== 0) en[keyOf(i)] = textOf("en", i);
    if (i % 11 !== 0) fr[keyOf(i)] = textOf("fr", i);
  }
  return { en, fr };
}

/** A seeded project with `en` pushed (approved) and `fr` pushed as pending: what the pulls read. */
export async function seedPair(
  s: TestServer,
  en: Record<string, string>,
  fr: Record<string, string>,
): Promise<{ project: ProjectView; key: SeededKey }> {
  const { project, key } = await s.seed.world();
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "en" }, en);
  await pushAndWait(s, { key: key.key, projectId: project.id, language: "fr" }, fr, { status: "pending" });
  return { project, key };
}

/** GET /api/v1/pull as XLIFF with `query` added. */
export const pullXliff = (
  s: TestServer,
  projectId: string,
  apiKey: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  s.request(`/api/v1/pull?${new URLSearchParams({ project_id: projectId, format: "xliff", ...query })}`, {
    key: apiKey,
    headers,
  });

/** The formatter's whole render of `values` (fr, pending), sources from `en`. */
export const wholeXliff = (
  project: ProjectView,
  en: Record<string, string>,
  values: Record<string, string>,
  options = {},
) =>
  FORMATTERS.get("xliff")?.render({
    project: { ...project, orgId: "", deletedAt: null, createdAt: "" },
    language: "fr",
    rows: Object.keys(values)
      .sort(compareCodePoints)
      .map((k) => ({ key: k, value: values[k] as string, status: "pending" as const })),
    sources: new Map(Object.entries(en)),
    options: { bom: false, xliffVersion: "1.2", ...options },
  });

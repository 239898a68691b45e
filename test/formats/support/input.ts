import { compareCodePoints } from "../../../core/code-point.ts";
import type { ExportInput, ExportOptions, ExportRow } from "../../../core/formats/index.ts";
import type { Project, TranslationStatus } from "../../../core/types.ts";

export interface Entry {
  key: string;
  value: string;
  status?: TranslationStatus;
  /** Base-language value; absent means the base language lacks the key. */
  source?: string;
}

export const PROJECT: Project = {
  id: "00000000-0000-4000-8000-000000000001",
  orgId: "00000000-0000-4000-8000-000000000002",
  name: 'Demo & "Friends" <app>\tv2',
  baseLanguage: "en",
  languages: ["en", "fr", "pt-BR"],
  deletedAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

/** What the pull use case hands a formatter: rows in code-point order of key. */
export function exportInput(
  entries: readonly Entry[],
  options: Partial<ExportOptions> = {},
  language = "fr",
  project: Project = PROJECT,
): ExportInput & { rows: ExportRow[] } {
  const rows: ExportRow[] = entries
    .map((e, i) => ({ id: `row-${i}`, key: e.key, value: e.value, status: e.status ?? "approved" }))
    .sort((a, b) => compareCodePoints(a.key, b.key));
  const sources = new Map<string, string>();
  for (const e of entries) if (e.source !== undefined) sources.set(e.key, e.source);
  return { project, language, rows, sources, options: { bom: false, xliffVersion: "1.2", ...options } };
}

/** The key → value pairs an export must give back, in export order. */
export function expectedPairs(input: ExportInput & { rows: ExportRow[] }): [string, string][] {
  return input.rows.map((r) => [r.key, r.value]);
}

import { checkTranslation, type Warning } from "../checks/index.ts";
import type { Deps } from "../context.ts";
import type { Project } from "../types.ts";
import type { RecordState } from "./types.ts";

/**
 * Warnings of values about to be written in `language`, keyed by key, against the base records
 * given (a base value is checked alone), and the rechecks of other languages' records when base
 * values change. One read of the other languages' records of those keys.
 */
export async function checksFor(
  deps: Deps,
  project: Project,
  language: string,
  values: Map<string, string>,
  bases: ReadonlyMap<string, RecordState>,
): Promise<{ warnings: Map<string, Warning[]>; rechecks: { id: string; warnings: Warning[] }[] }> {
  const base = project.baseLanguage;
  const warnings = new Map<string, Warning[]>();
  for (const [key, value] of values) {
    const b = language === base ? null : (bases.get(key)?.value ?? null);
    warnings.set(key, checkTranslation({ base: b, value, baseLanguage: base, language }));
  }
  const rechecks: { id: string; warnings: Warning[] }[] = [];
  if (language === base && values.size > 0) {
    const others = project.languages.filter((l) => l !== base);
    for (const r of await deps.storage.records.read(project.id, [...values.keys()], others)) {
      const input = {
        base: values.get(r.key) ?? null,
        value: r.value,
        baseLanguage: base,
        language: r.language,
      };
      rechecks.push({ id: r.id, warnings: checkTranslation(input) });
    }
  }
  return { warnings, rechecks };
}

/** The base records of `keys`, by key. */
export async function basesOf(
  deps: Deps,
  project: Project,
  keys: string[],
): Promise<Map<string, RecordState>> {
  const rows = await deps.storage.records.read(project.id, keys, [project.baseLanguage]);
  return new Map(rows.map((r) => [r.key, r]));
}

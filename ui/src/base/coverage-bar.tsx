/**
 * One language's coverage as a stacked bar (approved, needs review, pending, draft, missing) with
 * the same figures in words for screen readers.
 */
import { type LanguageCoverage, STATUS_LABEL } from "../types.ts";

const PARTS = ["approved", "needs_review", "pending", "draft", "missing"] as const;

/** The share of keys with a translation, rounded down (99 % until the last one is in). */
export const translatedPercent = (c: LanguageCoverage): number =>
  Math.floor((100 * (c.referenceKeys - c.missing)) / (c.referenceKeys || 1));

export function coverageWords(c: LanguageCoverage): string {
  const parts = PARTS.filter((p) => c[p] > 0).map((p) => `${c[p]} ${STATUS_LABEL[p].toLowerCase()}`);
  const done = translatedPercent(c);
  return `${c.language}: ${done}% translated of ${c.referenceKeys} keys${parts.length ? ` (${parts.join(", ")})` : ""}${c.warnings ? `, ${c.warnings} with warnings` : ""}`;
}

export function CoverageBar({ coverage }: { coverage: LanguageCoverage }) {
  return (
    <div class="coverage-bar" role="img" aria-label={coverageWords(coverage)}>
      {PARTS.map((p) =>
        coverage[p] > 0 ? <span key={p} class={`seg ${p}`} style={{ flexGrow: coverage[p] }} /> : null,
      )}
    </div>
  );
}

/**
 * One language's coverage as a stacked bar (approved, needs review, pending, draft, missing) with
 * the same figures in words for screen readers.
 */
import { type LanguageCoverage, STATUS_LABEL } from "../types.ts";

const PARTS = ["approved", "needs_review", "pending", "draft", "missing"] as const;

export function coverageWords(c: LanguageCoverage): string {
  const total = c.referenceKeys || 1;
  const parts = PARTS.filter((p) => c[p] > 0).map((p) => `${c[p]} ${STATUS_LABEL[p].toLowerCase()}`);
  const done = Math.floor((100 * (c.referenceKeys - c.missing)) / total);
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

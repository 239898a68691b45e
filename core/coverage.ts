import { authorize } from "./authorization.ts";
import { compareCodePoints } from "./code-point.ts";
import type { Deps } from "./context.ts";
import type { Principal } from "./principal.ts";
import { visibleProject } from "./projects.ts";

export interface LocaleCoverage {
  language: string;
  coveragePercent: number;
  filledKeys: number;
  missingCount: number;
  totalReferenceKeys: number;
}

export interface CoverageReport {
  projectId: string;
  projectName: string;
  baseLanguage: string;
  hasReferenceKeys: boolean;
  referenceKeyCount: number;
  locales: LocaleCoverage[];
}

/**
 * CONTRACT §8: reference keys are the base language's keys with a non-empty value; each language's
 * filled keys are reference keys it also holds non-empty. Base first, then code-point order.
 */
export async function coverage(deps: Deps, principal: Principal, projectId: string): Promise<CoverageReport> {
  authorize(principal, "coverage.read");
  const project = await visibleProject(deps, principal, projectId, "project_id");
  const { referenceKeyCount: total, filled } = await deps.storage.translations.coverage(
    project.id,
    project.baseLanguage,
  );
  const others = project.languages.filter((l) => l !== project.baseLanguage).sort(compareCodePoints);
  const locales = [project.baseLanguage, ...others].map((language): LocaleCoverage => {
    const filledKeys = filled.get(language) ?? 0;
    return {
      language,
      coveragePercent: total === 0 ? 0 : Math.floor((100 * filledKeys) / total),
      filledKeys,
      missingCount: total - filledKeys,
      totalReferenceKeys: total,
    };
  });
  return {
    projectId: project.id,
    projectName: project.name,
    baseLanguage: project.baseLanguage,
    hasReferenceKeys: total > 0,
    referenceKeyCount: total,
    locales,
  };
}

import { apiData } from "../api.ts";
import type { LanguageCoverage, Project } from "../types.ts";

/** A project's coverage per language, from the project when it carries it, else from its own endpoint. */
export async function coverageOf(project: Project): Promise<LanguageCoverage[]> {
  if (project.coverage) return project.coverage;
  const answer = await apiData<
    LanguageCoverage[] | { languages?: LanguageCoverage[]; locales?: LanguageCoverage[] }
  >("GET", `/projects/${encodeURIComponent(project.id)}/coverage`);
  return Array.isArray(answer) ? answer : (answer.languages ?? answer.locales ?? []);
}

/** The editor, showing `language` beside the base and filtered to what it lacks. */
export const continueHref = (projectId: string, language: string): string =>
  `/projects/${encodeURIComponent(projectId)}/editor?languages=${encodeURIComponent(language)}&missing=true`;

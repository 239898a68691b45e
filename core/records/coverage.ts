import { authorize } from "../authorization.ts";
import type { Principal } from "../principal.ts";
import { projectOf, type RecordDeps } from "./context.ts";
import type { PeopleCoverage } from "./types.ts";

/** Per language over the reference keys: missing, each status, and records with warnings. */
export async function peopleCoverage(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
): Promise<{ data: PeopleCoverage[] }> {
  authorize(principal, "coverage.read");
  const project = await projectOf(deps, principal, projectId);
  const data = await deps.storage.records.coverage(project.id, project.baseLanguage, project.languages);
  return { data };
}

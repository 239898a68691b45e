import { authorize } from "./authorization.ts";
import type { Deps } from "./context.ts";
import { invalid, notFound } from "./errors.ts";
import { isUuid } from "./ids.ts";
import type { Principal } from "./principal.ts";
import type { Project } from "./types.ts";

/** The public Project shape of API.md. */
export interface ProjectView {
  id: string;
  name: string;
  baseLanguage: string;
  languages: string[];
}

export const projectView = (p: Project): ProjectView => ({
  id: p.id,
  name: p.name,
  baseLanguage: p.baseLanguage,
  languages: [...p.languages],
});

/**
 * 400 unless `id` is a UUID; the field is named as the caller sent it (`project_id`, `projectId`).
 * Returns it in lower case, the form identifiers are stored in: a UUID's case carries no meaning.
 */
export function requireUuid(id: string, field: string): string {
  if (!isUuid(id)) throw invalid(`${field} must be a UUID (got ${JSON.stringify(id.slice(0, 80))})`);
  return id.toLowerCase();
}

/** A non-deleted project of the caller's organization; 404 for anything else, never 403. */
export async function visibleProject(
  deps: Deps,
  principal: Principal,
  id: string,
  field: string,
): Promise<Project> {
  return visible(await deps.storage.projects.get(requireUuid(id, field)), principal);
}

function visible(project: Project | null, principal: Principal): Project {
  if (!project || project.deletedAt !== null || project.orgId !== principal.orgId) {
    throw notFound("Project not found");
  }
  return project;
}

export async function getProject(deps: Deps, principal: Principal, id: string): Promise<ProjectView> {
  return projectView(await visibleProject(deps, principal, id, "project_id"));
}

/**
 * `getProject` without waiting, when the store can answer at once: the same view or the same
 * 400/404, or `undefined` (then ask `getProject`).
 */
export function getProjectNow(deps: Deps, principal: Principal, id: string): ProjectView | undefined {
  const { projects } = deps.storage;
  if (!projects.getNow) return undefined;
  const project = projects.getNow(requireUuid(id, "project_id"));
  return project === undefined ? undefined : projectView(visible(project, principal));
}

export async function listProjects(deps: Deps, principal: Principal): Promise<ProjectView[]> {
  authorize(principal, "projects.list");
  return (await deps.storage.projects.listByOrg(principal.orgId)).map(projectView);
}

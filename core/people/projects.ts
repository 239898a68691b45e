import * as admin from "../admin.ts";
import { authorize, isAllowed } from "../authorization.ts";
import type { Deps } from "../context.ts";
import { notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import { requireLocale } from "../locale.ts";
import type { UserPrincipal } from "../principal.ts";
import { type ProjectView, projectView } from "../projects.ts";
import type { PeopleCoverage } from "../records/types.ts";
import type { Project } from "../types.ts";
import { memberOf } from "./member-of.ts";
import type { User } from "./types.ts";

/** What the signed-in person may do in a project (the role table's answer, for the page to show). */
export interface ProjectAbilities {
  /** Languages whose values they may edit (and set draft or pending). */
  edit: string[];
  /** Languages where they may approve or ask for review. */
  review: string[];
  import: boolean;
  manageKeys: boolean;
  restoreKeys: boolean;
  manageProject: boolean;
}

export interface WorkspaceProject extends ProjectView {
  orgId: string;
  createdAt: string;
  can: ProjectAbilities;
}

export interface DashboardProject extends ProjectView {
  coverage: PeopleCoverage[];
}

export function abilities(principal: UserPrincipal, project: Project): ProjectAbilities {
  return {
    edit: project.languages.filter((l) => isAllowed(principal, "records.edit", l)),
    review: project.languages.filter((l) => isAllowed(principal, "records.review", l)),
    import: isAllowed(principal, "translations.import"),
    manageKeys: isAllowed(principal, "keys.manage"),
    restoreKeys: isAllowed(principal, "keys.restore"),
    manageProject: isAllowed(principal, "projects.manage"),
  };
}

const workspaceProject = (principal: UserPrincipal, p: Project): WorkspaceProject => ({
  ...projectView(p),
  orgId: p.orgId,
  createdAt: p.createdAt,
  can: abilities(principal, p),
});

/**
 * A live project and the signed-in user acting in its organization: the same 404 for a project
 * that does not exist, is deleted, or belongs to an organization the user is not in.
 */
export async function inProject(
  deps: Deps,
  user: Pick<User, "id" | "name">,
  projectId: string,
): Promise<{ principal: UserPrincipal; project: Project }> {
  const project = isUuid(projectId) ? await deps.storage.projects.get(projectId.toLowerCase()) : null;
  if (!project || project.deletedAt !== null) throw notFound("Project not found");
  const principal = await memberOf(deps, user, project.orgId).catch(() => {
    throw notFound("Project not found");
  });
  return { principal, project };
}

/** The organization's projects, each with its coverage per language (the dashboard). */
export async function listOrgProjects(deps: Deps, principal: UserPrincipal): Promise<DashboardProject[]> {
  authorize(principal, "projects.list");
  const projects = await deps.storage.projects.listByOrg(principal.orgId);
  return Promise.all(
    projects.map(async (p) => ({
      ...projectView(p),
      coverage: await deps.storage.records.coverage(p.id, p.baseLanguage, p.languages),
    })),
  );
}

export async function createOrgProject(
  deps: Deps,
  principal: UserPrincipal,
  input: { name: string; baseLanguage: string; languages?: string[] },
): Promise<WorkspaceProject> {
  authorize(principal, "projects.manage");
  const created = await admin.createProject(deps, {
    orgId: principal.orgId,
    name: input.name,
    baseLanguage: input.baseLanguage,
    languages: input.languages ?? [],
  });
  const project = await deps.storage.projects.get(created.id);
  if (!project) throw notFound("Project not found");
  return workspaceProject(principal, project);
}

export const describeProject = (principal: UserPrincipal, project: Project) =>
  workspaceProject(principal, project);

/** Renames and/or adds languages (projects.manage). */
export async function updateProject(
  deps: Deps,
  principal: UserPrincipal,
  project: Project,
  change: { name?: string; addLanguages?: string[] },
): Promise<WorkspaceProject> {
  authorize(principal, "projects.manage");
  const name = change.name === undefined ? undefined : admin.requireName(change.name);
  const added = (change.addLanguages ?? []).map((l) => requireLocale(l, "addLanguages"));
  let current: Project | null = project;
  if (name !== undefined) current = await deps.storage.projects.rename(project.id, name);
  for (const language of added) current = await deps.storage.projects.addLanguage(project.id, language);
  if (!current) throw notFound("Project not found");
  return workspaceProject(principal, current);
}

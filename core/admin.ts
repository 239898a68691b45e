import { type ApiKeyInfo, apiKeyInfo, createKey, type NewKey } from "./api-keys.ts";
import { type Deps, nowIso } from "./context.ts";
import { invalid, notFound } from "./errors.ts";
import { newId } from "./ids.ts";
import { requireLocale } from "./locale.ts";
import { type ProjectView, projectView, requireUuid } from "./projects.ts";
import { hasUncarriableCharacter } from "./text.ts";
import type { EnvironmentOverride, Organization, Project, TranslationStatus } from "./types.ts";

/** CONTRACT §2 operator commands: outside the public API, no authentication, same core rules. */

export const requireName = (name: string, field = "name"): string => {
  if (name.trim() === "" || [...name].length > 200) throw invalid(`${field} must be 1 to 200 characters`);
  // Names reach export files (XLIFF's original, file names): the push rules on characters apply.
  if (hasUncarriableCharacter(name)) throw invalid(`${field} contains a character no export can carry`);
  return name;
};

async function requireOrg(deps: Deps, id: string): Promise<Organization> {
  const org = await deps.storage.orgs.get(requireUuid(id, "org"));
  if (!org) throw notFound(`Organization ${id} not found`);
  return org;
}

async function requireProject(deps: Deps, id: string): Promise<Project> {
  const project = await deps.storage.projects.get(requireUuid(id, "project"));
  if (!project || project.deletedAt !== null) throw notFound(`Project ${id} not found`);
  return project;
}

export async function createOrg(deps: Deps, name: string): Promise<{ id: string; name: string }> {
  const org: Organization = {
    id: newId(),
    name: requireName(name),
    maxTranslations: null,
    createdAt: nowIso(deps),
  };
  await deps.storage.orgs.create(org);
  return { id: org.id, name: org.name };
}

/** An organization as operators see it: its quota (null: unlimited) and when it was created. */
export interface OrgView {
  id: string;
  name: string;
  maxTranslations: number | null;
  createdAt: string;
}

export async function listOrgs(deps: Deps): Promise<OrgView[]> {
  return (await deps.storage.orgs.list()).map(({ id, name, maxTranslations, createdAt }) => ({
    id,
    name,
    maxTranslations,
    createdAt,
  }));
}

/** The public Project shape plus the organization it belongs to (the listing spans them all). */
export type AdminProjectView = ProjectView & { orgId: string };

/**
 * Non-deleted projects, of one organization or of all. An unknown organization is an error rather
 * than an empty list: an operator with a wrong id must not conclude the organization is empty.
 */
export async function listProjects(deps: Deps, orgId?: string): Promise<AdminProjectView[]> {
  const projects =
    orgId === undefined
      ? await deps.storage.projects.listAll()
      : await deps.storage.projects.listByOrg((await requireOrg(deps, orgId)).id);
  return projects.map((p) => ({ ...projectView(p), orgId: p.orgId }));
}

export async function createProject(
  deps: Deps,
  input: { orgId: string; name: string; baseLanguage: string; languages: readonly string[] },
): Promise<ProjectView> {
  const org = await requireOrg(deps, input.orgId);
  const base = requireLocale(input.baseLanguage, "base");
  const languages = [...new Set([base, ...input.languages.map((l) => requireLocale(l, "languages"))])];
  const project: Project = {
    id: newId(),
    orgId: org.id,
    name: requireName(input.name),
    baseLanguage: base,
    languages,
    deletedAt: null,
    createdAt: nowIso(deps),
  };
  await deps.storage.projects.create(project);
  return projectView(project);
}

export async function addLanguage(deps: Deps, projectId: string, language: string): Promise<ProjectView> {
  requireLocale(language);
  const { id } = await requireProject(deps, projectId);
  const project = await deps.storage.projects.addLanguage(id, language);
  if (!project) throw notFound(`Project ${projectId} not found`);
  return projectView(project);
}

export async function deleteProject(deps: Deps, projectId: string): Promise<{ id: string; deleted: true }> {
  const { id } = await requireProject(deps, projectId);
  await deps.storage.projects.softDelete(id, nowIso(deps));
  return { id, deleted: true };
}

export async function createOrgKey(
  deps: Deps,
  orgId: string,
  input: NewKey,
): Promise<ApiKeyInfo & { key: string }> {
  const org = await requireOrg(deps, orgId);
  return createKey(deps, org.id, input);
}

export async function deactivateKey(deps: Deps, keyId: string): Promise<ApiKeyInfo> {
  const key = await deps.storage.keys.deactivate(requireUuid(keyId, "id"));
  if (!key) throw notFound(`API key ${keyId} not found`);
  return apiKeyInfo(key);
}

export async function setQuota(
  deps: Deps,
  orgId: string,
  maxTranslations: number,
): Promise<{ orgId: string; maxTranslations: number }> {
  const org = await requireOrg(deps, orgId);
  if (!Number.isInteger(maxTranslations) || maxTranslations < 0) {
    throw invalid("max-translations must be an integer of 0 or more");
  }
  await deps.storage.orgs.setQuota(org.id, maxTranslations);
  return { orgId: org.id, maxTranslations };
}

export async function setEnvironmentOverride(
  deps: Deps,
  input: { projectId: string; environment: string; language: string; key: string; value: string },
): Promise<EnvironmentOverride> {
  const project = await requireProject(deps, input.projectId);
  requireLocale(input.language);
  if (!project.languages.includes(input.language)) {
    throw invalid(`language ${input.language} is not one of the project's languages`);
  }
  const environment = requireName(input.environment, "env");
  if (input.key === "") throw invalid("key must not be empty");
  // The override reaches exports, so it obeys the push rules on characters (CONTRACT §6).
  for (const [field, text] of [
    ["env", environment],
    ["key", input.key],
    ["value", input.value],
  ] as const) {
    if (hasUncarriableCharacter(text)) throw invalid(`${field} contains a character no export can carry`);
  }
  const override: EnvironmentOverride = {
    projectId: project.id,
    environment,
    language: input.language,
    key: input.key,
    value: input.value,
  };
  await deps.storage.environments.set(override);
  return override;
}

export async function listAllTranslations(
  deps: Deps,
  projectId: string,
  language: string,
): Promise<{ id: string; key: string; language: string; value: string; status: TranslationStatus }[]> {
  requireLocale(language);
  const project = await requireProject(deps, projectId);
  if (!project.languages.includes(language))
    throw notFound(`Project ${projectId} has no language ${language}`);
  const rows = await deps.storage.translations.listForExport(project.id, language, null);
  return rows.map((r) => ({ id: r.id, key: r.key, language, value: r.value, status: r.status }));
}

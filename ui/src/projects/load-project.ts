import { apiData } from "../api.ts";
import type { Project } from "../types.ts";

let early: { id: string; project: Promise<Project> } | null = null;

async function fetchProject(id: string): Promise<Project> {
  const answer = await apiData<Project | { project: Project }>("GET", `/projects/${encodeURIComponent(id)}`);
  return "project" in answer ? answer.project : answer;
}

/** GET /projects/{id}: the project, whether it comes alone or beside what the caller may do. */
export function loadProject(id: string): Promise<Project> {
  const hit = early?.id === id ? early.project : undefined;
  early = null;
  // A prefetch refused (signed out then) is asked again: the person may have signed in since.
  return hit ? hit.catch(() => fetchProject(id)) : fetchProject(id);
}

/**
 * Asks for the project as the script starts, before the first render (whose effects wait for a
 * paint); the first loadProject of the same id takes it.
 */
export function prefetchProject(id: string): void {
  const project = fetchProject(id);
  project.catch(() => {});
  early = { id, project };
}

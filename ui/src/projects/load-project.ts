import { apiData } from "../api.ts";
import type { Project } from "../types.ts";

/** GET /projects/{id}: the project, whether it comes alone or beside what the caller may do. */
export async function loadProject(id: string): Promise<Project> {
  const answer = await apiData<Project | { project: Project }>("GET", `/projects/${encodeURIComponent(id)}`);
  return "project" in answer ? answer.project : answer;
}

/**
 * The editor's first page of records, asked for as soon as the script runs when the address names
 * the languages (a shared link, "Continue", a reload): it travels beside /me and the project
 * instead of after them, which is most of the wait for the first rows on a large project. The
 * editor takes it only if the query it would send itself is the same; otherwise it is dropped.
 */
import { api } from "../api.ts";
import { prefetchProject } from "../projects/load-project.ts";
import type { RecordPage } from "../types.ts";
import { filtersOf, recordsQuery } from "./filters.ts";

/** The first page is small: the first rows are drawn before the rest arrives. */
export const FIRST_PAGE_SIZE = 100;

let prefetched: { path: string; page: Promise<RecordPage> } | null = null;

export const recordsPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/records`;

/** On a project's page or editor, its project at once; in the editor, the first page too if it can. */
export function prefetchEditor(location: { pathname: string; search: string }): void {
  const project = /^\/projects\/([^/]+)(\/editor)?$/.exec(location.pathname);
  if (project?.[1]) prefetchProject(decodeURIComponent(project[1]));
  const match = /^\/projects\/([^/]+)\/editor$/.exec(location.pathname);
  const query = new URLSearchParams(location.search);
  const languages = (query.get("languages") ?? "")
    .split(",")
    .map((l) => l.trim())
    .filter(Boolean);
  if (!match?.[1] || languages.length === 0) return;
  const path = `${recordsPath(decodeURIComponent(match[1]))}?${recordsQuery(filtersOf(query, languages), null, FIRST_PAGE_SIZE)}`;
  const page = api<RecordPage>("GET", path);
  // Whoever takes it handles its error; one nobody takes must not be reported as unhandled.
  page.catch(() => {});
  prefetched = { path, page };
}

/**
 * The prefetched page for exactly this request, once; undefined when there is none. One refused
 * (signed out then) is asked again: the person may have signed in since.
 */
export function takePrefetched(path: string): Promise<RecordPage> | undefined {
  const hit = prefetched?.path === path ? prefetched.page : undefined;
  prefetched = null;
  return hit?.catch(() => api<RecordPage>("GET", path));
}

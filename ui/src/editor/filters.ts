/**
 * The editor's view as URL parameters, so a filtered view is a link to share: which languages
 * are shown beside the base, which one the filters apply to, and the records API's filters.
 */
import type { Project, Status } from "../types.ts";

export interface EditorFilters {
  languages: string[];
  language: string;
  missing: boolean;
  status: Status[];
  warnings: boolean;
  changedSince: string;
  q: string;
}

const FILTER_PARAMS = ["missing", "status", "warnings", "changedSince", "q"];

/**
 * Reads the filters from the URL. With none at all, the view shows what is left to translate
 * ("only untranslated" is the default, as translators expect).
 */
export function readFilters(
  query: URLSearchParams,
  project: Project,
  editable: (l: string) => boolean,
): EditorFilters {
  const others = project.languages.filter((l) => l !== project.baseLanguage);
  let languages = (query.get("languages") ?? "")
    .split(",")
    .map((l) => l.trim())
    .filter((l) => others.includes(l));
  if (languages.length === 0) languages = [others.find(editable) ?? others[0] ?? project.baseLanguage];
  return filtersOf(query, languages);
}

/** The filters the URL names once the shown `languages` are settled (they must not be empty). */
export function filtersOf(query: URLSearchParams, languages: string[]): EditorFilters {
  const asked = query.get("language") ?? "";
  const language = languages.includes(asked) ? asked : (languages[0] as string);
  const untouched = !FILTER_PARAMS.some((p) => query.has(p));
  return {
    languages,
    language,
    missing: untouched || query.get("missing") === "true",
    status: (query.get("status") ?? "").split(",").filter(Boolean) as Status[],
    warnings: query.get("warnings") === "true",
    changedSince: query.get("changedSince") ?? "",
    q: query.get("q") ?? "",
  };
}

/** The URL parameters of a view; `missing=false` is written so the default does not come back. */
export function filtersQuery(f: EditorFilters): URLSearchParams {
  const query = new URLSearchParams();
  query.set("languages", f.languages.join(","));
  if (f.language !== f.languages[0]) query.set("language", f.language);
  query.set("missing", String(f.missing));
  if (f.status.length) query.set("status", f.status.join(","));
  if (f.warnings) query.set("warnings", "true");
  if (f.changedSince) query.set("changedSince", f.changedSince);
  if (f.q) query.set("q", f.q);
  return query;
}

/** The records API's query for one page. */
export function recordsQuery(f: EditorFilters, cursor: string | null, limit: number): string {
  const query = new URLSearchParams({
    languages: f.languages.join(","),
    language: f.language,
    limit: String(limit),
  });
  if (f.missing) query.set("missing", "true");
  if (f.status.length) query.set("status", f.status.join(","));
  if (f.warnings) query.set("warnings", "true");
  if (f.changedSince) query.set("changedSince", new Date(f.changedSince).toISOString());
  if (f.q) query.set("q", f.q);
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

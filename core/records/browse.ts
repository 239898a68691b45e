import { authorize } from "../authorization.ts";
import { parseDateTime } from "../date-time.ts";
import { invalid } from "../errors.ts";
import type { Principal } from "../principal.ts";
import { hasUncarriableCharacter } from "../text.ts";
import type { Project } from "../types.ts";
import { projectOf, type RecordDeps, requireLanguage, requireStatus } from "./context.ts";
import { foldForSearch } from "./fold.ts";
import type { BrowseCounts, BrowseFilter, BrowseQuery } from "./types.ts";
import { type RecordView, recordView } from "./views.ts";

/** The browse parameters as a query string carries them. */
export interface BrowseParams {
  languages?: string;
  language?: string;
  missing?: string;
  status?: string;
  warnings?: string;
  changedSince?: string;
  changedBy?: string;
  q?: string;
  cursor?: string;
  limit?: string;
}

export interface BrowseResult {
  data: { key: string; base: RecordView | null; records: Record<string, RecordView | null> }[];
  nextCursor: string | null;
  counts: BrowseCounts;
}

function flag(value: string | undefined, field: string): boolean | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw invalid(`${field} must be true or false`);
}

/** Cursors are the last key of a page, base64url-encoded so any key travels in a URL. */
export function encodeCursor(key: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(key)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string): string {
  const refused = () => invalid("cursor must be a value a previous page returned");
  if (!/^[A-Za-z0-9_-]{1,8000}$/.test(cursor)) throw refused();
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    throw refused();
  }
}

/** The filters of a browse (also what bulk actions take), checked against the project. */
export function browseFilter(
  p: Omit<BrowseParams, "languages" | "language" | "cursor" | "limit">,
): BrowseFilter {
  const filter: BrowseFilter = {};
  const missing = flag(p.missing, "missing");
  if (missing) filter.missing = true;
  if (p.status !== undefined && p.status !== "")
    filter.statuses = p.status.split(",").map((s) => requireStatus(s));
  if (flag(p.warnings, "warnings")) filter.warnings = true;
  if (p.changedSince !== undefined && p.changedSince !== "") {
    // The one strict reader: a day the calendar lacks (2026-02-30) is refused, not rolled over.
    const at = parseDateTime(p.changedSince);
    if (at === null) {
      throw invalid(
        `changedSince must be a real date and time with a time zone, such as 2026-01-31T00:00:00Z (RFC 3339; got ${JSON.stringify(p.changedSince.slice(0, 40))})`,
      );
    }
    filter.changedSince = new Date(at).toISOString();
  }
  if (p.changedBy !== undefined && p.changedBy !== "") filter.changedBy = p.changedBy;
  if (p.q !== undefined && p.q !== "") {
    if (p.q.length > 200) throw invalid("q must be at most 200 characters");
    if (hasUncarriableCharacter(p.q)) throw invalid("q contains a control character");
    filter.q = foldForSearch(p.q);
  }
  return filter;
}

export function browseLanguages(project: Project, p: Pick<BrowseParams, "languages" | "language">) {
  const languages =
    p.languages === undefined || p.languages === ""
      ? project.languages.filter((l) => l !== project.baseLanguage)
      : [...new Set(p.languages.split(",").map((l) => requireLanguage(project, l, "languages")))];
  const language =
    p.language === undefined || p.language === ""
      ? (languages[0] ?? project.baseLanguage)
      : requireLanguage(project, p.language);
  return { languages, language };
}

/**
 * One page of a project's keys, the base beside the chosen languages, filtered on `language`,
 * with the counts a filter bar shows. See docs/workspace-api.md, "Browsing".
 */
export async function browseRecords(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  p: BrowseParams,
): Promise<BrowseResult> {
  authorize(principal, "translations.read");
  const project = await projectOf(deps, principal, projectId);
  const { languages, language } = browseLanguages(project, p);
  const limit = p.limit === undefined || p.limit === "" ? 100 : Number(p.limit);
  if (!/^[0-9]{1,3}$/.test(p.limit ?? "100") || !Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw invalid("limit must be an integer from 1 to 500");
  }
  const query: BrowseQuery = {
    projectId: project.id,
    baseLanguage: project.baseLanguage,
    languages,
    language,
    projectLanguages: project.languages,
    filter: browseFilter(p),
    after: p.cursor === undefined || p.cursor === "" ? null : decodeCursor(p.cursor),
    limit,
  };
  const page = await deps.storage.records.browse(query);
  const last = page.rows[page.rows.length - 1];
  return {
    data: page.rows.map((r) => ({
      key: r.key,
      base: r.base && recordView(r.base),
      records: Object.fromEntries(Object.entries(r.records).map(([l, rec]) => [l, rec && recordView(rec)])),
    })),
    nextCursor: page.more && last ? encodeCursor(last.key) : null,
    counts: page.counts,
  };
}

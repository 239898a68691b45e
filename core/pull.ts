import { authorize } from "./authorization.ts";
import type { Deps } from "./context.ts";
import { invalid, notFound } from "./errors.ts";
import {
  chunksOfPages,
  type ExportOptions,
  type ExportRow,
  FORMATTERS,
  type Formatter,
} from "./formats/index.ts";
import { isUuid } from "./ids.ts";
import { requireLocale } from "./locale.ts";
import type { Principal } from "./principal.ts";
import { visibleProject } from "./projects.ts";
import { hasUncarriableCharacter } from "./text.ts";

/** The query of `GET /pull` (API.md) and its CONTRACT §10–11 options, as strings. */
export interface PullRequest {
  projectId: string;
  language: string;
  format?: string;
  environment?: string;
  selectedIds?: string;
  bom?: string;
  xliffVersion?: string;
}

export interface PullResult {
  body: string;
  contentType: string;
  /** `<project-name-slug>.<language>.<ext>` */
  filename: string;
  /** Strong entity tag of the body, quoted. */
  etag: string;
}

/**
 * A pull whose request is checked and whose tag is known, before any row is read: a conditional
 * GET that matches `etag` never calls `open`.
 */
export interface PullFile {
  contentType: string;
  filename: string;
  /** Strong entity tag of the file `open` gives, quoted. */
  etag: string;
  /**
   * Reads the rows and gives the file in pieces (UTF-16 text, about 64 Ki units each), written as
   * they are consumed. Throws not_found when no row is selected, before the first piece.
   */
  open(): Promise<Iterable<string>>;
  /**
   * The same file, its pieces possibly given as the store reads the rows (the first ones sent
   * before the last rows are read): what a server sends. Throws as `open` does, before the first
   * piece.
   */
  pieces(): Promise<Iterable<string> | AsyncIterable<string>>;
}

/**
 * Bump when any format's bytes change for the same data (a fix in a writer), so a tag from an
 * earlier release never matches a file this one writes differently.
 */
const WRITERS_REVISION = 1;

/** CONTRACT §7/§11: lower-case, runs of other than a–z0–9 become one `-`, trimmed; empty → project. */
export function slug(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "project" : s;
}

function parseSelectedIds(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  let ids: unknown;
  try {
    ids = JSON.parse(raw);
  } catch {
    throw invalid("selected_ids must be a JSON array of translation ids");
  }
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
    throw invalid("selected_ids must be a JSON array of strings");
  }
  // Identifiers are UUIDs: any other string matches nothing, and is not worth a query (Postgres
  // refuses a text holding U+0000 outright).
  return ids.filter(isUuid);
}

function parseOptions(req: PullRequest): ExportOptions {
  if (req.bom !== undefined && req.bom !== "true" && req.bom !== "false") {
    throw invalid(`bom must be true or false (got ${JSON.stringify(req.bom)})`);
  }
  if (req.xliffVersion !== undefined && req.xliffVersion !== "1.2" && req.xliffVersion !== "2.0") {
    throw invalid(`xliff_version must be 1.2 or 2.0 (got ${JSON.stringify(req.xliffVersion)})`);
  }
  return { bom: req.bom === "true", xliffVersion: req.xliffVersion === "2.0" ? "2.0" : "1.2" };
}

function formatterFor(name: string | undefined): Formatter {
  const formatter = FORMATTERS.get(name ?? "json");
  if (!formatter)
    throw invalid(`format must be one of ${[...FORMATTERS.keys()].join(", ")} (got ${JSON.stringify(name)})`);
  return formatter;
}

/** Exports one language of one project (API.md pull, CONTRACT §7), whole. */
export async function pull(deps: Deps, principal: Principal, req: PullRequest): Promise<PullResult> {
  const file = await pullFile(deps, principal, req);
  let body = "";
  for (const piece of await file.open()) body += piece;
  return { body, contentType: file.contentType, filename: file.filename, etag: file.etag };
}

/**
 * The pull as a file to send: checks, then the tag from the store's export version (project, language, format, options and
 * the version of every language the bytes depend on), then, when asked, the rows.
 */
export async function pullFile(deps: Deps, principal: Principal, req: PullRequest): Promise<PullFile> {
  authorize(principal, "translations.export");
  requireLocale(req.language);
  const formatter = formatterFor(req.format);
  const options = parseOptions(req);
  const ids = parseSelectedIds(req.selectedIds);
  const project = await visibleProject(deps, principal, req.projectId, "project_id");
  if (!project.languages.includes(req.language))
    throw notFound(`The project has no language ${req.language}`);
  const { translations, environments } = deps.storage;
  const environment = req.environment;
  if (
    environment !== undefined &&
    // No environment name holds a character no store can keep (U+0000 and the like): don't ask.
    (hasUncarriableCharacter(environment) || !(await environments.exists(project.id, environment)))
  ) {
    throw invalid(`The project has no environment ${JSON.stringify(environment)}`);
  }
  const language = req.language;
  // XLIFF of another language than the base writes the base's values beside: read along if the store can.
  const sourced =
    formatter.needsSource && language !== project.baseLanguage && translations.listForExportWithSource
      ? translations.listForExportWithSource.bind(translations)
      : null;
  const render = async (): Promise<Iterable<string>> => {
    // Overrides read first: a streamed read holds its snapshot from its first page on.
    const overrides =
      environment === undefined ? null : await environments.list(project.id, environment, language);
    const streamed =
      sourced && ids === null && translations.streamForExportWithSource
        ? await translations.streamForExportWithSource(project.id, language, project.baseLanguage)
        : null;
    if (streamed) {
      const rows = withFirst(streamed);
      if (!rows) throw notFound("No translations found");
      return formatter.chunks({
        project,
        language,
        rows: overrides && overrides.size > 0 ? overridden(rows, overrides) : rows,
        sources: new Map(),
        options,
      });
    }
    const found: ExportRow[] =
      ids && ids.length === 0
        ? []
        : sourced
          ? await sourced(project.id, language, project.baseLanguage, ids)
          : translations.listForExportWithoutIds
            ? await translations.listForExportWithoutIds(project.id, language, ids)
            : await translations.listForExport(project.id, language, ids);
    if (found.length === 0) throw notFound("No translations found");
    const rows = overrides && overrides.size > 0 ? overridden(found, overrides) : found;
    const sources =
      formatter.needsSource && !sourced
        ? await baseValues(deps, project.id, project.baseLanguage, language, found)
        : new Map();
    return formatter.chunks({ project, language, rows, sources, options });
  };
  // A store that reads pages while the file is sent (Postgres): a whole language, a format
  // written unit by unit.
  const units = formatter.units;
  const paged =
    sourced && ids === null && units && translations.pagesForExportWithSource
      ? translations.pagesForExportWithSource.bind(translations)
      : null;
  const pieces = async (): Promise<Iterable<string> | AsyncIterable<string>> => {
    if (!paged || !units) return render();
    const overrides =
      environment === undefined ? null : await environments.list(project.id, environment, language);
    const pages = paged(project.id, language, project.baseLanguage)[Symbol.asyncIterator]();
    // The first page before any piece: a failed read or a language without rows is the answer.
    const first = await pages.next();
    if (first.done) throw notFound("No translations found");
    const all = (async function* () {
      yield first.value;
      // The rest through the same iterator: ending this one ends the store's read.
      yield* { [Symbol.asyncIterator]: () => pages };
    })();
    const writer = units({ project, language, sources: new Map(), options });
    return overrides && overrides.size > 0
      ? chunksOfPages(writer, all, (r) => ({ ...r, value: overrides.get(r.key) ?? r.value }))
      : chunksOfPages(writer, all);
  };
  const file = {
    contentType: formatter.contentType,
    filename: `${slug(project.name)}.${language}.${formatter.extension}`,
  };
  if (!translations.exportVersion) {
    // A store without versions: the tag is the rendered file's fingerprint.
    let body = "";
    for (const piece of await render()) body += piece;
    const etag = `"${deps.hasher.fingerprint(body)}-${body.length.toString(16)}"`;
    return { ...file, etag, open: async () => [body], pieces: async () => [body] };
  }
  const depends =
    formatter.needsSource && language !== project.baseLanguage
      ? [language, project.baseLanguage]
      : [language];
  // Read before the rows (in `open`): a write between the two makes the tag older than the file,
  // which costs one more download later, never a 304 for a file the client does not have.
  const version = await translations.exportVersion(project.id, depends);
  const described = JSON.stringify([
    WRITERS_REVISION,
    project.id,
    project.name,
    project.baseLanguage,
    project.languages,
    language,
    formatter.name,
    options,
    environment ?? null,
    ids,
    version,
  ]);
  return { ...file, etag: `"${deps.hasher.fingerprint(described)}"`, open: render, pieces };
}

/** The rows again, their first already read; null when there is none (read before any piece is given). */
function withFirst<T>(rows: Iterable<T>): Iterable<T> | null {
  const it = rows[Symbol.iterator]();
  const first = it.next();
  if (first.done) return null;
  return (function* () {
    yield first.value;
    // The rest through the same iterator: ending this one early ends the store's read.
    yield* { [Symbol.iterator]: () => it };
  })();
}

/** An override replaces the value of a key the language has; it never adds a key. */
function* overridden(rows: Iterable<ExportRow>, overrides: Map<string, string>): Generator<ExportRow> {
  for (const r of rows) yield { ...r, value: overrides.get(r.key) ?? r.value };
}

/** Base-language values by key, without environment overrides (the rows read when pulling the base). */
async function baseValues(
  deps: Deps,
  projectId: string,
  base: string,
  language: string,
  rows: ExportRow[],
): Promise<Map<string, string>> {
  if (language === base) return new Map(rows.map((r) => [r.key, r.value]));
  const all = await deps.storage.translations.listForExport(projectId, base, null);
  return new Map(all.map((r) => [r.key, r.value]));
}

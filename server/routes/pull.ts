import { Elysia, t } from "elysia";
import { FORMATTERS, type Parlance } from "../../core/index.ts";
import { fileBody } from "../file-body.ts";
import { operation } from "../openapi/operation.ts";
import { principalOf } from "../request-state.ts";
import { errorDocs, Locale, TranslationFile, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** `*` matches only if a representation exists: the rows must be read to know (404 otherwise). */
export const matchesAny = (ifNoneMatch: string | null): boolean =>
  ifNoneMatch?.split(",").some((tag) => tag.trim() === "*") ?? false;

/**
 * Ends pieces that will not be sent. A store reading rows as they are sent (SQLite's XLIFF) holds a
 * snapshot until its read ends; a generator that never started ignores `return`, so the first piece
 * is taken (about 64 KiB) for the end to reach the store's read.
 */
function endUnsent(pieces: Iterable<string>): void {
  const it = pieces[Symbol.iterator]();
  if (!it.next().done) it.return?.();
}

/**
 * A string parameter whose values the document lists for typed clients. `enum` beside `type:
 * string` is documentation only: the validator checks no `enum` on a string, so core refuses any
 * other value with its own message (a schema union would also fill an absent value with its first).
 */
const OneOf = (values: readonly string[], description: string) =>
  t.Optional(t.String({ enum: [...values], description }));

const query = t.Object({
  project_id: Uuid("Project to export"),
  language: Locale("Language to export"),
  format: OneOf([...FORMATTERS.keys()], "The file format; default json"),
  environment: t.Optional(t.String({ description: "Apply this environment's overrides" })),
  selected_ids: t.Optional(t.String({ description: "JSON array of translation ids: export only these" })),
  bom: OneOf(["true", "false"], "csv: true prepends a UTF-8 byte order mark; default false"),
  xliff_version: OneOf(["1.2", "2.0"], "xliff: the XLIFF version; default 1.2"),
});

/** The file itself: documented by hand, since its media type depends on `format`. */
export const FILE_RESPONSE_DOCS = {
  200: {
    description: "The exported file, as an attachment (Content-Disposition), with an ETag",
    content: Object.fromEntries(
      [...FORMATTERS.values()].map((f) => {
        const type = f.contentType.split(";")[0] as string;
        const schema = type === "application/json" ? TranslationFile : t.String();
        return [type, { schema }];
      }),
    ),
  },
  304: { description: "Not modified: If-None-Match matched the current ETag" },
};

const fileResponses = { ...FILE_RESPONSE_DOCS, ...errorDocs(400, 401, 403, 404, 429, 500) };

/** `GET /pull` and its deprecated alias `GET /export`; `textChunks` as ServerOptions.textChunks. */
export const pullRoutes = (parlance: Parlance, textChunks = false) => {
  const handler = async ({
    request,
    query: q,
    set,
  }: {
    request: Request;
    query: typeof query.static;
    set: { headers: Record<string, unknown>; status?: unknown };
  }) => {
    const file = await parlance.pullFile(principalOf(request), {
      projectId: q.project_id,
      language: q.language,
      format: q.format,
      environment: q.environment,
      selectedIds: q.selected_ids,
      bom: q.bom,
      xliffVersion: q.xliff_version,
    });
    set.headers.etag = file.etag;
    const ifNoneMatch = request.headers.get("if-none-match");
    if (etagMatches(ifNoneMatch, file.etag)) {
      if (matchesAny(ifNoneMatch)) endUnsent(await file.open());
      return new Response(null, { status: 304, headers: set.headers as Record<string, string> });
    }
    // Opened before anything is sent: a pull that selects no row is still a 404 Error object.
    const { body, headers } = await fileBody(await file.pieces(), textChunks);
    set.headers["content-type"] = file.contentType;
    set.headers["content-disposition"] = `attachment; filename="${file.filename}"`;
    return new Response(body, { headers: { ...(set.headers as Record<string, string>), ...headers } });
  };
  const options = (deprecated: boolean) => ({
    ...guard("translations.export"),
    query,
    detail: {
      ...operation({
        id: deprecated ? "exportDeprecated" : "pull",
        summary: deprecated
          ? "Export translations (deprecated alias of /pull)"
          : "Export one language of a project",
        deprecated,
        tag: "Translations",
        description:
          "The file as a download; keys in code-point order. ETag and If-None-Match (304) supported. " +
          "format=json answers a flat object of strings; the other formats are text of their media type." +
          (deprecated ? " Deprecated: use GET /api/v1/pull." : ""),
        scope: "export:read",
        headers: { 200: { ETag: true, "Content-Disposition": true }, 304: { ETag: true } },
      }),
      responses: fileResponses,
    },
  });
  return new Elysia({ name: "pull" })
    .get("/api/v1/pull", handler, options(false))
    .get("/api/v1/export", handler, options(true));
};

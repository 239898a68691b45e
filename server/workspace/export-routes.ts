import { Elysia, t } from "elysia";
import { invalid } from "../../core/errors.ts";
import { unflatten } from "../../core/index.ts";
import { fileBody } from "../file-body.ts";
import { etagMatches, FILE_RESPONSE_DOCS, matchesAny } from "../routes/pull.ts";
import { errorDocs, TranslationFile } from "../schemas.ts";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { describe } from "./schemas.ts";

/** JSON nested by its dot-separated keys, laid out like the flat export (2-space indent, final newline). */
function nested(pieces: Iterable<string>): string {
  let flatJson = "";
  for (const piece of pieces) flatJson += piece;
  const flat = JSON.parse(flatJson) as Record<string, string>;
  return `${JSON.stringify(unflatten(Object.entries(flat)), null, 2)}\n`;
}

/**
 * `format=json` answers the flat file of /api/v1/pull, or with `nested=true` objects for each dotted
 * prefix (members are strings, objects of the same form, or arrays where the members are named
 * 0 … n-1, docs/formats.md; documented one level deep, since a recursive schema helps no client
 * generator).
 */
const JSON_DOWNLOAD = t.Union([
  TranslationFile,
  t.Record(
    t.String(),
    t.Union([t.String(), t.Object({}, { additionalProperties: true }), t.Array(t.Unknown())]),
    {
      description:
        "nested=true: keys split at their dots into objects; leaves are strings; members named 0 … n-1 form an array",
    },
  ),
]);

const DOWNLOAD_DOCS = {
  ...FILE_RESPONSE_DOCS,
  200: {
    ...FILE_RESPONSE_DOCS[200],
    content: { ...FILE_RESPONSE_DOCS[200].content, "application/json": { schema: JSON_DOWNLOAD } },
  },
};

/**
 * Downloads for people: every pull format of one language, and JSON nested, by the same core use
 * case as GET /api/v1/pull (every member may export).
 */
export const exportRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-export" }).get(
    `${WORKSPACE_PREFIX}/projects/:projectId/export`,
    async ({ request, params, query, set }) => {
      const { principal, project } = await kit.inProject(request, params.projectId);
      if (query.nested !== undefined && query.nested !== "true" && query.nested !== "false")
        throw invalid("nested must be true or false");
      const asNested = query.nested === "true";
      if (asNested && (query.format ?? "json") !== "json")
        throw invalid("nested applies to the json format only");
      const file = await kit.parlance.pullFile(principal, {
        projectId: project.id,
        language: query.language,
        format: query.format,
        bom: query.bom,
        xliffVersion: query.xliff_version,
      });
      const etag = asNested ? `"n${file.etag.slice(1)}` : file.etag;
      const headers: Record<string, string> = {
        ...(set.headers as Record<string, string>),
        etag,
        "cache-control": "private, no-cache",
      };
      const ifNoneMatch = request.headers.get("if-none-match");
      if (etagMatches(ifNoneMatch, etag)) {
        if (matchesAny(ifNoneMatch)) await file.open();
        return new Response(null, { status: 304, headers });
      }
      headers["content-type"] = file.contentType;
      headers["content-disposition"] = `attachment; filename="${file.filename}"`;
      if (asNested) return new Response(nested(await file.open()), { headers });
      const sent = await fileBody(await file.pieces(), kit.options.textChunks);
      return new Response(sent.body, { headers: { ...headers, ...sent.headers } });
    },
    {
      ...requireUser(kit),
      params: t.Object({ projectId: t.String() }),
      query: t.Object({
        language: t.String({ description: "Language to export" }),
        format: t.Optional(t.String({ description: "json (default), csv, xliff, xml or yaml" })),
        nested: t.Optional(t.String({ description: "json: true nests the keys by their dots" })),
        bom: t.Optional(t.String({ description: "csv: true prepends a UTF-8 byte order mark" })),
        xliff_version: t.Optional(t.String({ description: "xliff: 1.2 (default) or 2.0" })),
      }),
      // Documented by hand, as /api/v1/pull is: the media type depends on `format`.
      detail: {
        ...describe({
          id: "exportFile",
          summary: "Download one language in any format",
          description: "The pull of /api/v1/pull for people, plus nested JSON (an object of objects).",
          tag: "Imports",
        }),
        responses: { ...DOWNLOAD_DOCS, ...errorDocs(400, 401, 404) },
      },
    },
  );

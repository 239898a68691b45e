import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { IMPORT_MODES, type Parlance, TRANSLATION_STATUSES } from "../../core/index.ts";
import { principalOf } from "../request-state.ts";
import { errors, Locale, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

const body = t.Object({
  content: t.String({ description: "Raw JSON file content, as a string" }),
  language: Locale("Target language of the imported values"),
  projectId: Uuid("Project to import into"),
  dryRun: t.Optional(t.Boolean({ default: false, description: "Validate and preview without writing" })),
  format: t.Optional(t.String({ description: "Only json is allowed", default: "json" })),
  importMode: t.Optional(t.UnionEnum(IMPORT_MODES, { default: "merge" })),
  status: t.Optional(t.UnionEnum(TRANSLATION_STATUSES, { default: "approved" })),
});

const preview = t.Object({
  dryRun: t.Boolean(),
  importMode: t.UnionEnum(IMPORT_MODES),
  language: t.String(),
  rowCount: Type.Integer(),
  toCreate: Type.Integer(),
  toUpdate: Type.Integer(),
  unchanged: Type.Integer(),
  toDelete: t.Optional(Type.Integer()),
});

const accepted = t.Object({
  jobId: t.String({ description: "Poll GET /api/v1/jobs/{jobId}" }),
  runId: t.String({ description: "Identifier of this execution attempt" }),
});

/** `POST /push` and its deprecated alias `POST /import`. */
export const pushRoutes = (parlance: Parlance) => {
  const handler = async ({
    request,
    body: b,
    set,
  }: {
    request: Request;
    body: typeof body.static;
    set: { headers: Record<string, unknown>; status?: number | string };
  }) => {
    const result = await parlance.push(principalOf(request), b);
    if (result.kind === "preview") return result.preview;
    set.status = 202;
    set.headers.location = `/api/v1/jobs/${result.accepted.jobId}`;
    return result.accepted;
  };
  const options = (deprecated: boolean) => ({
    ...guard("translations.import"),
    // Documents the media type; the global size-limited parser (server/body.ts) reads the body first.
    parse: "json" as const,
    body,
    response: { 200: preview, 202: accepted, ...errors(400, 401, 402, 403, 404, 413, 429, 500) },
    detail: {
      summary: deprecated
        ? "Import translations (deprecated alias of /push)"
        : "Import a JSON translation file",
      deprecated,
      tags: ["Translations"],
      description:
        "dryRun previews the change (200); otherwise the import runs as a background job (202 with Location). " +
        "Payloads over 12 MB or 50,000 rows answer 413 Payload too large.",
    },
  });
  return new Elysia({ name: "push" })
    .post("/api/v1/push", handler, options(false))
    .post("/api/v1/import", handler, options(true));
};

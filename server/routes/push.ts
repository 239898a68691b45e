import { Elysia, t } from "elysia";
import { IMPORT_MODES, type Parlance, TRANSLATION_STATUSES } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { COLLECT_AFTER_BODY_BYTES, parsedPushBody, pushContentOf, releasePushContent } from "../push-body.ts";
import { principalOf } from "../request-state.ts";
import { errors, Locale, PushAccepted, PushPreview, Uuid, withoutDefault } from "../schemas.ts";
import { guard } from "./guard.ts";

const body = t.Object({
  content: t.String({ description: "Raw JSON file content, as a string" }),
  language: Locale("Target language of the imported values"),
  projectId: Uuid("Project to import into"),
  // No `default` in a body schema: applying one clones the body, and a clone assigns "__proto__"
  // as the prototype (docs/security.md). Core applies the defaults; the words document them.
  dryRun: t.Optional(t.Boolean({ description: "Validate and preview without writing. Default: false." })),
  format: t.Optional(t.String({ description: 'Only json is allowed. Default: "json".' })),
  importMode: t.Optional(withoutDefault(t.UnionEnum(IMPORT_MODES, { description: 'Default: "merge".' }))),
  status: t.Optional(
    withoutDefault(t.UnionEnum(TRANSLATION_STATUSES, { description: 'Default: "approved".' })),
  ),
});

/** `POST /push` and its deprecated alias `POST /import`. */
export const pushRoutes = (parlance: Parlance, returnFreeMemory: () => void = () => {}) => {
  const handler = async ({
    request,
    body: b,
    set,
  }: {
    request: Request;
    body: typeof body.static;
    set: { headers: Record<string, unknown>; status?: number | string };
  }) => {
    // The body's `content` string was left in its bytes (server/push-body.ts); b.content is "" then.
    // Before its content is read, the runtime returns a large body's buffers (ParlanceOptions.beforeReadingContent).
    const content = pushContentOf(request);
    let result: Awaited<ReturnType<Parlance["push"]>>;
    try {
      result = await parlance.push(principalOf(request), {
        ...b,
        content: content ?? b.content,
      });
    } finally {
      // The store has its copy, the job its rows: the body's 12 MB go now, not after the import.
      if (releasePushContent(request) >= COLLECT_AFTER_BODY_BYTES) returnFreeMemory();
    }
    if (result.kind === "preview") return result.preview;
    set.status = 202;
    set.headers.location = `/api/v1/jobs/${result.accepted.jobId}`;
    return result.accepted;
  };
  const options = (deprecated: boolean) => ({
    ...guard("translations.import", { body: parsedPushBody }),
    // Documents the media type; the global size-limited parser (server/body.ts) reads the body first.
    parse: "json" as const,
    body,
    response: { 200: PushPreview, 202: PushAccepted, ...errors(400, 401, 402, 403, 404, 413, 429, 500) },
    detail: operation({
      id: deprecated ? "importDeprecated" : "push",
      summary: deprecated
        ? "Import translations (deprecated alias of /push)"
        : "Import a JSON translation file",
      deprecated,
      tag: "Translations",
      description:
        "Nested objects in `content` become dot-separated keys. dryRun previews the change (200); " +
        "otherwise the import runs as a background job (202 with Location; polling it needs " +
        "`translations:read`). Payloads over 12 MB or 50,000 rows answer 413 Payload too large." +
        (deprecated ? " Deprecated: use POST /api/v1/push." : ""),
      scope: "translations:write",
      hasBody: true,
      requestBodyName: "PushRequest",
      headers: { 202: { Location: true } },
    }),
  });
  return new Elysia({ name: "push" })
    .post("/api/v1/push", handler, options(false))
    .post("/api/v1/import", handler, options(true));
};

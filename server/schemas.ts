import { type TSchema, Type } from "@sinclair/typebox";
import { t } from "elysia";
import { IMPORT_MODES, JOB_STATUSES, SCOPES, TRANSLATION_STATUSES } from "../core/index.ts";

/**
 * TypeBox schemas of the public shapes: they validate requests and responses, and generate the
 * OpenAPI document. Responses use TypeBox's own Integer: Elysia's `t.Integer` also admits numeric
 * strings (for query coercion), which would document every count as "string or integer".
 */
const Int = (description?: string) => Type.Integer(description ? { description } : {});

/**
 * Marks `schema` as the named component `name`: the document lists it once under
 * `components.schemas` and refers to it with `$ref` wherever it is used (server/openapi/refs.ts).
 * The mark is an annotation validators ignore, so validation and response cleaning stay inline.
 */
export const COMPONENT = "x-parlance-component";
export function component<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { [COMPONENT]: name });
}

/**
 * A request-body schema without `default` anywhere at its top level: Elysia applies defaults by
 * cloning the body with assignment, which turns a `"__proto__"` member into the clone's prototype
 * (issue 10). Core applies the defaults instead; descriptions state them ("Default: …").
 */
export function withoutDefault<T extends TSchema>(schema: T): T {
  delete (schema as { default?: unknown }).default;
  return schema;
}

export const Uuid = (description: string) => t.String({ format: "uuid", description });
export const Locale = (description = "Locale code such as en, pt-BR or zh-Hant-TW") =>
  t.String({ description, examples: ["fr"] });
export const IsoDate = t.String({ format: "date-time" });
const IsoDateOrNull = (description: string) => t.Union([IsoDate, t.Null()], { description });

export const ErrorObject = component(
  "Error",
  t.Object(
    {
      error: t.String({ description: "What went wrong, for a person to read" }),
      timestamp: t.String({ format: "date-time", description: "When the server answered (UTC)" }),
      details: t.Optional(
        t.String({ description: "Extra details for the developer; development mode (PARLANCE_ENV) only" }),
      ),
    },
    { description: "The Error object every error answer carries" },
  ),
);

export const ScopeSchema = component(
  "Scope",
  t.UnionEnum(SCOPES, { description: "A permission of an API key; admin implies no other scope" }),
);
export const StatusSchema = component(
  "TranslationStatus",
  t.UnionEnum(TRANSLATION_STATUSES, { description: "Review state of a translation" }),
);

export const Project = component(
  "Project",
  t.Object({
    id: t.String({ format: "uuid" }),
    name: t.String(),
    baseLanguage: t.String({ description: "Locale code of the base language" }),
    languages: t.Array(t.String(), { description: "Locale codes, the base language included" }),
  }),
);

export const KeyInfo = component(
  "KeyInfo",
  t.Object(
    {
      name: t.String({ description: "The key's name" }),
      organization: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }),
      scopes: t.Array(ScopeSchema, { description: "What this credential may do" }),
      rateLimit: Int("Requests per hour"),
      usageCount: Int("Requests served to this key, this one included"),
    },
    { description: "The calling credential: its key, organization, scopes, rate limit and usage" },
  ),
);

export const ImportJob = component(
  "Job",
  t.Object(
    {
      id: t.String({ format: "uuid", description: "The jobId push answered" }),
      projectId: t.String({ format: "uuid" }),
      type: t.Literal("import"),
      status: t.UnionEnum(JOB_STATUSES, {
        description: "pending and running: not finished; completed (summary) or failed (errorMessage)",
        default: undefined,
      }),
      summary: t.Object(
        { created: Int(), updated: Int(), deleted: t.Optional(Int("Replace mode only")) },
        { description: "Rows created and updated (and deleted in replace mode)" },
      ),
      errorMessage: t.Union([t.String(), t.Null()], { description: "Why the job failed; null otherwise" }),
      createdAt: IsoDate,
      updatedAt: IsoDate,
    },
    { description: "An import job, created by a push" },
  ),
);

export const LocaleCoverage = component(
  "LocaleCoverage",
  t.Object({
    language: t.String(),
    coveragePercent: Int("floor(100 × filledKeys / totalReferenceKeys); 0 without reference keys"),
    filledKeys: Int("Reference keys with a non-empty value in this language"),
    missingCount: Int("totalReferenceKeys − filledKeys"),
    totalReferenceKeys: Int(),
  }),
);

export const Coverage = component(
  "Coverage",
  t.Object(
    {
      projectId: t.String({ format: "uuid" }),
      projectName: t.String(),
      baseLanguage: t.String(),
      hasReferenceKeys: t.Boolean(),
      referenceKeyCount: Int("Keys with a non-empty value in the base language"),
      locales: t.Array(LocaleCoverage, { description: "Base language first, then by code" }),
    },
    { description: "Per-locale translation coverage of one project" },
  ),
);

const apiKeyFields = {
  id: t.String({ format: "uuid" }),
  name: t.String(),
  prefix: t.String({ description: "pl_ and the first 6 hex characters" }),
  scopes: t.Array(ScopeSchema),
  rateLimit: Int("Requests per hour"),
  usageCount: Int(),
  active: t.Boolean(),
  expiresAt: IsoDateOrNull("When the key stops working; null: never"),
  createdAt: IsoDate,
  lastUsedAt: IsoDateOrNull("null: never used"),
};
export const ApiKeyInfo = component(
  "ApiKeyInfo",
  t.Object(apiKeyFields, { description: "An API key as listings show it (never the key itself)" }),
);
export const CreatedApiKey = component(
  "CreatedApiKey",
  t.Object(
    { ...apiKeyFields, key: t.String({ description: "The full key (pl_ + 64 hex): shown only here, once" }) },
    { description: "A new API key: its info and the full key" },
  ),
);

export const Translation = component(
  "Translation",
  t.Object({
    id: t.String({ format: "uuid", description: "What selected_ids of /pull takes" }),
    key: t.String(),
    language: t.String(),
    value: t.String(),
    status: StatusSchema,
    updatedAt: IsoDate,
  }),
);

export const Pagination = component(
  "Pagination",
  t.Object({ total: Int("Items in the whole listing"), limit: Int(), offset: Int() }),
);

const page = (name: string, item: TSchema, description: string) =>
  component(
    name,
    t.Object({ success: t.Boolean(), data: t.Array(item), pagination: Pagination }, { description }),
  );
export const TranslationsPage = page(
  "TranslationsPage",
  Translation,
  "One page of a language's translations",
);
export const ApiKeysPage = page("ApiKeysPage", ApiKeyInfo, "One page of the organization's API keys");

export const PushPreview = component(
  "PushPreview",
  t.Object(
    {
      dryRun: t.Boolean(),
      importMode: t.UnionEnum(IMPORT_MODES, { default: undefined }),
      language: t.String(),
      rowCount: Int("Rows after flattening"),
      toCreate: Int("Keys the language lacks"),
      toUpdate: Int("Existing keys whose value or status would change"),
      unchanged: Int("Existing keys that would stay as they are"),
      toDelete: t.Optional(Int("Replace mode only: keys of the language absent from the content")),
    },
    { description: "What a push would change (dryRun); nothing was written" },
  ),
);

export const PushAccepted = component(
  "PushAccepted",
  t.Object(
    {
      jobId: t.String({ description: "Poll GET /api/v1/jobs/{jobId}" }),
      runId: t.String({ description: "Identifier of this execution attempt" }),
    },
    { description: "The import was accepted and runs as a background job" },
  ),
);

/** `format=json` of /pull: a flat object of dot-separated keys to string values. */
export const TranslationFile = component(
  "TranslationFile",
  t.Object(
    {},
    {
      additionalProperties: t.String(),
      description: "Flat JSON object: dot-separated key to string value, keys in code-point order",
    },
  ),
);

export const TokenResponse = component(
  "TokenResponse",
  t.Object(
    {
      access_token: t.String({ description: "Opaque; send it as Authorization: Bearer <token>" }),
      token_type: t.Literal("Bearer"),
      expires_in: Int("Seconds until the token expires (3600)"),
      scope: t.String({ description: "Space-separated scopes the token carries" }),
    },
    { description: "An access token (RFC 6749 §5.1)" },
  ),
);

export const OAuthError = component(
  "OAuthError",
  t.Object(
    {
      error: t.UnionEnum(
        ["invalid_request", "invalid_client", "unsupported_grant_type", "invalid_scope", "rate_limited"],
        {
          description: "RFC 6749 §5.2 error code, or rate_limited with 429",
          default: undefined,
        },
      ),
      error_description: t.String(),
      timestamp: t.String({ format: "date-time" }),
    },
    { description: "A token endpoint error (RFC 6749 §5.2) with the Error object's timestamp" },
  ),
);

/**
 * The token request, for the document only: the route reads the body itself (RFC 6749 rules on
 * repeated and unknown parameters), in either media type.
 */
export const TokenRequest = component(
  "TokenRequest",
  t.Object(
    {
      grant_type: t.Literal("client_credentials"),
      client_secret: t.Optional(
        t.String({ description: "The API key (pl_…); or send it with HTTP Basic instead" }),
      ),
      client_id: t.Optional(t.String({ description: "The key's id; must match the key when given" })),
      scope: t.Optional(
        t.String({ description: "Space-separated subset of the key's scopes; empty or absent: all" }),
      ),
    },
    { description: "OAuth 2.0 client credentials grant (RFC 6749 §4.4)" },
  ),
);

/** The error statuses a route can answer, each with the Error object. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, ErrorObject])) as Record<number, typeof ErrorObject>;
}

/** The same, as raw OpenAPI response objects, for routes documented by hand (file downloads). */
export function errorDocs(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: "Error object", content: { "application/json": { schema: ErrorObject } } },
    ]),
  );
}

import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { JOB_STATUSES, SCOPES, TRANSLATION_STATUSES } from "../core/index.ts";

/**
 * TypeBox schemas of the public shapes: they validate requests and generate the OpenAPI document.
 * Responses use TypeBox's own Integer: Elysia's `t.Integer` also admits numeric strings (for
 * query coercion), which would document every count as "string or integer".
 */
const Int = () => Type.Integer();

export const Uuid = (description: string) => t.String({ format: "uuid", description });
export const Locale = (description = "Locale code such as en, pt-BR or zh-Hant-TW") =>
  t.String({ description, examples: ["fr"] });
export const IsoDate = t.String({ format: "date-time" });

export const ErrorObject = t.Object(
  {
    error: t.String({ description: "Error message" }),
    timestamp: IsoDate,
    details: t.Optional(t.String({ description: "Extra details, present in development mode only" })),
  },
  { description: "Error object" },
);

export const ScopeSchema = t.UnionEnum(SCOPES);
export const StatusSchema = t.UnionEnum(TRANSLATION_STATUSES);

export const Project = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  baseLanguage: t.String(),
  languages: t.Array(t.String()),
});

export const KeyInfo = t.Object({
  name: t.String(),
  organization: t.Object({ id: t.String(), name: t.String() }),
  scopes: t.Array(ScopeSchema),
  rateLimit: Int(),
  usageCount: Int(),
});

export const ImportJob = t.Object({
  id: t.String({ format: "uuid" }),
  projectId: t.String({ format: "uuid" }),
  type: t.Literal("import"),
  status: t.UnionEnum(JOB_STATUSES),
  summary: t.Object({ created: Int(), updated: Int(), deleted: t.Optional(Int()) }),
  errorMessage: t.Union([t.String(), t.Null()]),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

export const Coverage = t.Object({
  projectId: t.String({ format: "uuid" }),
  projectName: t.String(),
  baseLanguage: t.String(),
  hasReferenceKeys: t.Boolean(),
  referenceKeyCount: Int(),
  locales: t.Array(
    t.Object({
      language: t.String(),
      coveragePercent: Int(),
      filledKeys: Int(),
      missingCount: Int(),
      totalReferenceKeys: Int(),
    }),
  ),
});

export const ApiKeyInfo = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  prefix: t.String({ description: "pl_ and the first 6 hex characters" }),
  scopes: t.Array(ScopeSchema),
  rateLimit: Int(),
  usageCount: Int(),
  active: t.Boolean(),
  expiresAt: t.Union([IsoDate, t.Null()]),
  createdAt: IsoDate,
  lastUsedAt: t.Union([IsoDate, t.Null()]),
});

export const Translation = t.Object({
  id: t.String({ format: "uuid" }),
  key: t.String(),
  language: t.String(),
  value: t.String(),
  status: StatusSchema,
  updatedAt: IsoDate,
});

export const Pagination = t.Object({ total: Int(), limit: Int(), offset: Int() });

/** The error statuses a route can answer, each with the Error object, for the OpenAPI document. */
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

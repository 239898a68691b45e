import { t } from "elysia";
import { TRANSLATION_STATUSES, type TranslationStatus, WARNING_CODES } from "../../core/index.ts";
import { component, ErrorObject, IsoDate } from "../schemas.ts";

export const StatusSchema = component(
  "TranslationStatus",
  // An enum rather than a union of literals: the document renders it the same wherever it is used.
  t.Unsafe<TranslationStatus>(
    t.String({
      enum: [...TRANSLATION_STATUSES],
      description: "draft and pending: records.edit; approved and needs_review: records.review",
    }),
  ),
);

export const WarningSchema = component(
  "CheckWarning",
  t.Object(
    {
      code: t.String({ description: `One of ${WARNING_CODES.join(", ")}` }),
      message: t.String(),
      placeholder: t.Optional(t.String()),
      syntax: t.Optional(t.String()),
      offset: t.Optional(t.Integer()),
    },
    { description: "One result of the checks against the base value (docs/checks.md)" },
  ),
);

const actorObject = () =>
  t.Object(
    {
      kind: t.Unsafe<"user" | "api_key" | "operator" | "app">(
        t.String({ enum: ["user", "api_key", "operator", "app"] }),
      ),
      id: t.Optional(t.String()),
      name: t.Optional(t.String()),
    },
    {
      description:
        "Who made a change: a user or API key (id, name), the operator, or the embedding app (name)",
    },
  );

export const ActorSchema = component("Actor", actorObject());

// The document folds a union with null into the component it holds, so "X or null" uses an inline
// copy of X's object and only the non-null uses name the component.
const recordObject = () =>
  t.Object(
    {
      id: t.String(),
      key: t.String(),
      language: t.String(),
      value: t.String(),
      status: StatusSchema,
      version: t.Integer({ minimum: 1, description: "Grows by one with every change, by any path" }),
      warnings: t.Array(WarningSchema),
      updatedAt: IsoDate,
      updatedBy: t.Union([actorObject(), t.Null()]),
    },
    { description: 'One translation (project, key, language); its ETag is "<id>.<version>"' },
  );

export const RecordSchema = component("Record", recordObject());

const RecordOrNull = t.Union([recordObject(), t.Null()]);

export const BrowseRowSchema = component(
  "BrowseRow",
  t.Object(
    {
      key: t.String(),
      base: RecordOrNull,
      // additionalProperties rather than t.Record: Elysia's response check refuses a Record of a
      // union beside another union member holding an object (elysia 1.4).
      records: t.Object({}, { additionalProperties: RecordOrNull, description: "language → record or null" }),
    },
    { description: "One key: its base record beside the chosen languages' records" },
  ),
);

export const BrowseCountsSchema = component(
  "BrowseCounts",
  t.Object(
    {
      total: t.Integer({ description: "Keys matching the whole query" }),
      missing: t.Integer(),
      draft: t.Integer(),
      pending: t.Integer(),
      needs_review: t.Integer(),
      approved: t.Integer(),
      warnings: t.Integer(),
    },
    {
      description: "The filter language's counts over the keys matching the text (other filters not applied)",
    },
  ),
);

const Side = t.Union([t.Object({ value: t.String(), status: StatusSchema }), t.Null()]);

export const HistoryEntrySchema = component(
  "HistoryEntry",
  t.Object(
    {
      id: t.String(),
      key: t.String(),
      language: t.String(),
      action: t.String({
        description: "import, edit, bulk, key.add, key.rename, key.delete, key.restore, revert",
      }),
      actor: ActorSchema,
      jobId: t.Union([t.String(), t.Null()]),
      at: IsoDate,
      old: Side,
      new: Side,
      version: t.Union([t.Integer(), t.Null()]),
    },
    { description: "One change of one record: old null when it was created, new null when deleted" },
  ),
);

export const ActivitySchema = component(
  "ActivityItem",
  t.Object(
    {
      id: t.String(),
      action: t.String(),
      actor: ActorSchema,
      jobId: t.Union([t.String(), t.Null()]),
      language: t.Union([t.String(), t.Null()]),
      key: t.Union([t.String(), t.Null()]),
      detail: t.Object({}, { additionalProperties: t.Union([t.Number(), t.String()]) }),
      at: IsoDate,
    },
    { description: "One action in a project (a push job is one item with its counts)" },
  ),
);

export const PeopleCoverageSchema = component(
  "RecordCoverage",
  t.Object(
    {
      language: t.String(),
      referenceKeys: t.Integer(),
      missing: t.Integer(),
      draft: t.Integer(),
      pending: t.Integer(),
      needs_review: t.Integer(),
      approved: t.Integer(),
      warnings: t.Integer(),
    },
    { description: "One language over the reference keys (non-empty in the base)" },
  ),
);

export const DeletedKeySchema = component(
  "DeletedKey",
  t.Object({ key: t.String(), deletedAt: IsoDate, deletedBy: ActorSchema, languages: t.Array(t.String()) }),
);

export const StaleRecordSchema = component(
  "StaleRecordError",
  t.Object(
    { ...ErrorObject.properties, current: RecordOrNull },
    { description: "412: the record changed since the version given; current is the record as it is now" },
  ),
);

export const BrowseFilterSchema = t.Object(
  {
    missing: t.Optional(t.Boolean()),
    status: t.Optional(t.Union([t.String(), t.Array(t.String())])),
    warnings: t.Optional(t.Boolean()),
    changedSince: t.Optional(t.String()),
    changedBy: t.Optional(t.String()),
    q: t.Optional(t.String()),
  },
  { additionalProperties: false, description: "The browse filters, applied to the action's language" },
);

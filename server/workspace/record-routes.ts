import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { invalid } from "../../core/errors.ts";
import { recordEtag, recordView, StaleRecordError } from "../../core/index.ts";
import { withoutDefault } from "../schemas.ts";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import {
  ActivitySchema,
  BrowseCountsSchema,
  BrowseFilterSchema,
  BrowseRowSchema,
  HistoryEntrySchema,
  PeopleCoverageSchema,
  RecordSchema,
  StaleRecordSchema,
  StatusSchema,
} from "./record-schemas.ts";
import { data, describe, errors } from "./schemas.ts";

const RECORDS = `${WORKSPACE_PREFIX}/projects/:projectId/records`;
const params = t.Object({ projectId: t.String() });
const Paged = <T extends Parameters<typeof t.Array>[0]>(item: T, description: string) =>
  t.Object({ data: t.Array(item), nextCursor: t.Union([t.String(), t.Null()]) }, { description });

const ETAG = /^"([^".]+)\.([0-9]{1,15})"$/;

/** The version an edit is guarded by: the body's, or the one `If-Match` names (which must agree). */
function guardOf(
  ifMatch: string | null,
  bodyVersion: number | undefined,
): { version: number; id: string | null } {
  if (ifMatch === null) {
    if (bodyVersion === undefined) throw invalid('version is required (or If-Match: "<id>.<version>")');
    return { version: bodyVersion, id: null };
  }
  const m = ETAG.exec(ifMatch.trim());
  if (!m) throw invalid('If-Match must be a record\'s ETag, "<id>.<version>"');
  const version = Number(m[2]);
  if (bodyVersion !== undefined && bodyVersion !== version) throw invalid("version and If-Match disagree");
  return { version, id: m[1] as string };
}

/** Browsing, editing, bulk actions, history, revert, activity and coverage of a project's records. */
export const recordRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-records" })
    .get(
      RECORDS,
      async ({ request, params: p, query }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return kit.parlance.records.browse(principal, p.projectId, query);
      },
      {
        ...requireUser(kit, { integers: { limit: { min: 1, max: 500 } }, asText: true }),
        params,
        query: t.Object({
          languages: t.Optional(
            t.String({ description: "Comma-separated languages beside the base (default: all)" }),
          ),
          language: t.Optional(
            t.String({ description: "The language the filters apply to (default: the first of languages)" }),
          ),
          missing: t.Optional(
            t.String({ description: "true: non-empty in the base, empty or absent in language" }),
          ),
          status: t.Optional(t.String({ description: "Comma-separated statuses" })),
          warnings: t.Optional(t.String({ description: "true: records with at least one warning" })),
          changedSince: t.Optional(t.String({ description: "ISO 8601 date-time" })),
          changedBy: t.Optional(t.String({ description: "A user id" })),
          q: t.Optional(t.String({ description: "Text in keys and values, case and accents ignored" })),
          cursor: t.Optional(t.String()),
          limit: t.Optional(t.String({ description: "1 to 500 (default 100)" })),
        }),
        response: {
          200: t.Object(
            {
              data: t.Array(BrowseRowSchema),
              nextCursor: t.Union([t.String(), t.Null()]),
              counts: BrowseCountsSchema,
            },
            { description: "One page of keys in code-point order, with counts" },
          ),
          ...errors(400, 401, 404),
        },
        detail: describe({
          id: "browseRecords",
          summary: "Browse keys with the base beside chosen languages",
          tag: "Records",
        }),
      },
    )
    .put(
      RECORDS,
      async ({ request, params: p, body, set }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        const guard = guardOf(request.headers.get("if-match"), body.version);
        if (guard.id !== null) {
          // An ETag of another record (or of one deleted and pushed again) is stale by definition.
          const [now] = await kit.parlance.storage.records.read(p.projectId, [body.key], [body.language]);
          if (now && now.id !== guard.id) throw new StaleRecordError(recordView(now));
        }
        const record = await kit.parlance.records.edit(principal, p.projectId, {
          ...body,
          version: guard.version,
        });
        set.headers.etag = recordEtag(record);
        return { data: record };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({
          key: t.String(),
          language: t.String(),
          value: t.Optional(t.String()),
          status: t.Optional(StatusSchema),
          version: t.Optional(
            // TypeBox's own Integer: Elysia's t.Integer carries a default (see withoutDefault).
            Type.Integer({ minimum: 0, description: "The version read; 0: the record must not exist yet" }),
          ),
        }),
        response: {
          200: data(RecordSchema, "The record as saved"),
          412: StaleRecordSchema,
          ...errors(400, 401, 402, 403, 404),
        },
        detail: describe({
          id: "editRecord",
          summary: "Set a record's value and/or status, guarded by its version (If-Match or version)",
          tag: "Records",
        }),
      },
    )
    .post(
      `${RECORDS}/bulk`,
      async ({ request, params: p, body }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return { data: await kit.parlance.records.bulk(principal, p.projectId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({
          language: t.String(),
          // withoutDefault: a schema default makes the framework clone the body, "__proto__" included.
          action: withoutDefault(t.UnionEnum(["status", "copy-base"])),
          status: t.Optional(StatusSchema),
          overwrite: t.Optional(t.Boolean()),
          keys: t.Optional(t.Array(t.String())),
          filter: t.Optional(BrowseFilterSchema),
        }),
        response: {
          200: data(t.Object({ changed: t.Integer() }), "How many records changed"),
          ...errors(400, 401, 402, 403, 404, 409),
        },
        detail: describe({
          id: "bulkRecords",
          summary: "Bulk status change or copy of the base value, in one transaction",
          tag: "Records",
        }),
      },
    )
    .get(
      `${RECORDS}/history`,
      async ({ request, params: p, query }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return kit.parlance.records.history(principal, p.projectId, query);
      },
      {
        ...requireUser(kit, { integers: { limit: { min: 1, max: 500 } }, asText: true }),
        params,
        query: t.Object({
          key: t.String(),
          language: t.String(),
          cursor: t.Optional(t.String()),
          limit: t.Optional(t.String()),
        }),
        response: {
          200: Paged(HistoryEntrySchema, "The record's history, newest first"),
          ...errors(400, 401, 404),
        },
        detail: describe({ id: "recordHistory", summary: "One record's history", tag: "Records" }),
      },
    )
    .post(
      `${RECORDS}/revert`,
      async ({ request, params: p, body, set }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        const record = await kit.parlance.records.revert(principal, p.projectId, body);
        set.headers.etag = recordEtag(record);
        return { data: record };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({
          key: t.String(),
          language: t.String(),
          entryId: t.String(),
          version: Type.Integer({ minimum: 1 }),
        }),
        response: {
          200: data(RecordSchema, "The record as reverted"),
          412: StaleRecordSchema,
          ...errors(400, 401, 403, 404),
        },
        detail: describe({
          id: "revertRecord",
          summary: "Set a record back to one of its history entries",
          tag: "Records",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/projects/:projectId/activity`,
      async ({ request, params: p, query }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return kit.parlance.records.activity(principal, p.projectId, query);
      },
      {
        ...requireUser(kit, { integers: { limit: { min: 1, max: 500 } }, asText: true }),
        params,
        query: t.Object({ cursor: t.Optional(t.String()), limit: t.Optional(t.String()) }),
        response: {
          200: Paged(ActivitySchema, "The project's activity, newest first"),
          ...errors(400, 401, 404),
        },
        detail: describe({ id: "projectActivity", summary: "The project's activity feed", tag: "Records" }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/projects/:projectId/coverage`,
      async ({ request, params: p }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return kit.parlance.records.coverage(principal, p.projectId);
      },
      {
        ...requireUser(kit),
        params,
        response: { 200: data(t.Array(PeopleCoverageSchema), "Per language"), ...errors(401, 404) },
        detail: describe({
          id: "recordCoverage",
          summary: "Missing, per-status and warning counts per language",
          tag: "Records",
        }),
      },
    );

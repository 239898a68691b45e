import { Elysia, t } from "elysia";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { DeletedKeySchema, RecordSchema } from "./record-schemas.ts";
import { data, describe, errors } from "./schemas.ts";

const KEYS = `${WORKSPACE_PREFIX}/projects/:projectId/keys`;
const params = t.Object({ projectId: t.String() });
const Moved = t.Object({
  key: t.String(),
  records: t.Integer({ description: "Records of the key, every language" }),
});

/** A project's keys: add, rename, delete (soft) and restore. */
export const keyRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-keys" })
    .post(
      KEYS,
      async ({ request, params: p, body, set }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        set.status = 201;
        return { data: await kit.parlance.records.addKey(principal, p.projectId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({ key: t.String(), baseValue: t.Optional(t.String()) }),
        response: {
          201: data(RecordSchema, "The key's base record"),
          ...errors(400, 401, 402, 403, 404, 409),
        },
        detail: describe({ id: "addKey", summary: "Add a key (keys.manage)", tag: "Keys" }),
      },
    )
    .post(
      `${KEYS}/rename`,
      async ({ request, params: p, body }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return { data: await kit.parlance.records.renameKey(principal, p.projectId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({ from: t.String(), to: t.String() }),
        response: { 200: data(Moved, "The key under its new name"), ...errors(400, 401, 403, 404, 409) },
        detail: describe({
          id: "renameKey",
          summary: "Rename a key in every language, keeping ids and history",
          tag: "Keys",
        }),
      },
    )
    .post(
      `${KEYS}/delete`,
      async ({ request, params: p, body }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return { data: await kit.parlance.records.deleteKeys(principal, p.projectId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({ keys: t.Array(t.String()) }),
        response: {
          200: data(
            t.Object({ deleted: t.Integer({ description: "Records deleted" }) }),
            "Soft-deleted: restorable",
          ),
          ...errors(400, 401, 403, 404),
        },
        detail: describe({ id: "deleteKeys", summary: "Delete keys in every language (soft)", tag: "Keys" }),
      },
    )
    .get(
      `${KEYS}/deleted`,
      async ({ request, params: p }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return kit.parlance.records.listDeletedKeys(principal, p.projectId);
      },
      {
        ...requireUser(kit),
        params,
        response: {
          200: data(t.Array(DeletedKeySchema), "Most recently deleted first"),
          ...errors(401, 403, 404),
        },
        detail: describe({ id: "listDeletedKeys", summary: "Deleted keys (keys.restore)", tag: "Keys" }),
      },
    )
    .post(
      `${KEYS}/restore`,
      async ({ request, params: p, body }) => {
        const { principal } = await kit.inProject(request, p.projectId);
        return { data: await kit.parlance.records.restoreKey(principal, p.projectId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params,
        body: t.Object({ key: t.String() }),
        response: {
          200: data(Moved, "The key, back in every language it had"),
          ...errors(400, 401, 402, 403, 404, 409),
        },
        detail: describe({ id: "restoreKey", summary: "Restore a deleted key (keys.restore)", tag: "Keys" }),
      },
    );

import { authorize } from "../authorization.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { requireRow } from "../flatten.ts";
import { newRecordId } from "../ids.ts";
import type { Principal } from "../principal.ts";
import { enforceQuotaForAdded } from "../quota.ts";
import { checksFor } from "./checks.ts";
import { newActivity, projectOf, type RecordDeps } from "./context.ts";
import type { DeletedKey } from "./types.ts";
import { type ActorView, actorView, type RecordView, recordView } from "./views.ts";

const requireKey = (key: unknown, field = "key"): string => {
  if (typeof key !== "string") throw invalid(`${field} must be a string`);
  requireRow(key, "");
  return key;
};

/** Adds a key: its base record, with `baseValue` or empty. 409 when the key exists. */
export async function addKey(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: { key: unknown; baseValue?: unknown },
): Promise<RecordView> {
  authorize(principal, "keys.manage");
  const project = await projectOf(deps, principal, projectId);
  const key = requireKey(req.key);
  if (req.baseValue !== undefined && typeof req.baseValue !== "string")
    throw invalid("baseValue must be a string");
  const value = (req.baseValue as string | undefined) ?? "";
  requireRow(key, value);
  if ((await deps.storage.records.read(project.id, [key], null)).length > 0)
    throw conflict(`The key ${JSON.stringify(key)} exists`);
  await enforceQuotaForAdded(deps, project.orgId, 1);
  const base = project.baseLanguage;
  const { warnings } = await checksFor(deps, project, base, new Map([[key, value]]), new Map());
  const activity = newActivity(deps, principal, project, "key.add", {
    key,
    language: base,
    detail: { records: 1 },
  });
  const outcome = await deps.storage.records.commit({
    projectId: project.id,
    writes: [
      {
        id: newRecordId(),
        key,
        language: base,
        value,
        status: "pending",
        warnings: warnings.get(key) ?? [],
        expectVersion: 0,
        previous: null,
      },
    ],
    rechecks: [],
    activity,
    at: activity.at,
  });
  if (!outcome.ok) throw conflict(`The key ${JSON.stringify(key)} exists`);
  const [created] = await deps.storage.records.read(project.id, [key], [base]);
  if (!created) throw new Error("key vanished after its creation");
  return recordView(created);
}

/** Renames a key in every language; ids and history stay with the records. */
export async function renameKey(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: { from: unknown; to: unknown },
): Promise<{ key: string; records: number }> {
  authorize(principal, "keys.manage");
  const project = await projectOf(deps, principal, projectId);
  const from = requireKey(req.from, "from");
  const to = requireKey(req.to, "to");
  if (from === to) throw invalid("from and to are the same key");
  const activity = newActivity(deps, principal, project, "key.rename", { key: to, detail: { from } });
  const outcome = await deps.storage.records.renameKey(project.id, from, to, activity);
  if (outcome === "missing") throw notFound(`The project has no key ${JSON.stringify(from)}`);
  if (outcome === "exists") throw conflict(`The key ${JSON.stringify(to)} exists`);
  return { key: to, records: (await deps.storage.records.read(project.id, [to], null)).length };
}

/** Soft-deletes keys in every language; an admin may restore them. How many records were deleted. */
export async function deleteKeys(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: { keys: unknown },
): Promise<{ deleted: number }> {
  authorize(principal, "keys.manage");
  const project = await projectOf(deps, principal, projectId);
  if (!Array.isArray(req.keys) || req.keys.length === 0 || !req.keys.every((k) => typeof k === "string")) {
    throw invalid("keys must be a non-empty array of strings");
  }
  if (req.keys.length > 50_000) throw invalid("keys may list at most 50000 keys");
  const keys = [...new Set(req.keys as string[])];
  const activity = newActivity(deps, principal, project, "key.delete", {
    key: keys.length === 1 ? (keys[0] as string) : null,
    detail: { keys: keys.length },
  });
  return { deleted: await deps.storage.records.deleteKeys(project.id, keys, activity) };
}

export interface DeletedKeyView {
  key: string;
  deletedAt: string;
  deletedBy: ActorView;
  languages: string[];
}

const deletedView = (d: DeletedKey): DeletedKeyView => ({ ...d, deletedBy: actorView(d.deletedBy) });

export async function listDeletedKeys(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
): Promise<{ data: DeletedKeyView[] }> {
  authorize(principal, "keys.restore");
  const project = await projectOf(deps, principal, projectId);
  return { data: (await deps.storage.records.listDeleted(project.id)).map(deletedView) };
}

/** Brings a deleted key back in every language it had. 409 when the key exists again meanwhile. */
export async function restoreKey(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: { key: unknown },
): Promise<{ key: string; records: number }> {
  authorize(principal, "keys.restore");
  const project = await projectOf(deps, principal, projectId);
  const key = requireKey(req.key);
  // The store's answers first where they decide (404, 409); the quota only for a restore that can be.
  const deleted = (await deps.storage.records.listDeleted(project.id)).find((d) => d.key === key);
  const live = deleted ? await deps.storage.records.read(project.id, [key], null) : [];
  if (deleted && live.length === 0) await enforceQuotaForAdded(deps, project.orgId, deleted.languages.length);
  const activity = newActivity(deps, principal, project, "key.restore", { key });
  const outcome = await deps.storage.records.restoreKey(project.id, key, activity);
  if (outcome === "missing") throw notFound(`No deleted key ${JSON.stringify(key)}`);
  if (outcome === "exists")
    throw conflict(`The key ${JSON.stringify(key)} exists again; rename or delete it first`);
  return { key, records: (await deps.storage.records.read(project.id, [key], null)).length };
}

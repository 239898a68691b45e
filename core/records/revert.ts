import { authorize } from "../authorization.ts";
import { invalid, notFound } from "../errors.ts";
import type { Principal } from "../principal.ts";
import { authorizeStatus, projectOf, type RecordDeps, requireLanguage } from "./context.ts";
import { applyOne } from "./edit.ts";
import type { RecordView } from "./views.ts";

export interface RevertRequest {
  key: unknown;
  language: unknown;
  entryId: unknown;
  version: unknown;
}

/** Sets a record back to the value and status of one of its history entries: itself a new entry. */
export async function revertRecord(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  req: RevertRequest,
): Promise<RecordView> {
  const project = await projectOf(deps, principal, projectId);
  if (typeof req.key !== "string") throw invalid("key must be a string");
  const language = requireLanguage(project, req.language);
  if (typeof req.entryId !== "string") throw invalid("entryId must be a string");
  if (typeof req.version !== "number" || !Number.isSafeInteger(req.version) || req.version < 1) {
    throw invalid("version must be the record's version (an integer of 1 or more)");
  }
  const entry = await deps.storage.records.historyEntry(project.id, req.entryId);
  const [record] = await deps.storage.records.read(project.id, [req.key], [language]);
  if (!entry || !record || entry.recordId !== record.id)
    throw notFound("This record has no such history entry");
  if (entry.newValue === null || entry.newStatus === null) {
    throw invalid("That entry deleted the record; restore the key instead");
  }
  authorize(principal, "records.edit", language);
  authorizeStatus(principal, entry.newStatus, language);
  return applyOne(deps, principal, project, "revert", {
    key: req.key,
    language,
    value: entry.newValue,
    status: entry.newStatus,
    version: req.version,
  });
}

/**
 * Per-record work (docs/workspace-api.md, "Records"): browse, edit, bulk actions, keys, history,
 * revert, activity and coverage for people, each one use case taking the principal first.
 */
import type { Deps } from "../context.ts";
import type { EventBus } from "../events.ts";
import type { Principal } from "../principal.ts";
import { operatorPrincipal } from "../principal.ts";
import { type BrowseParams, browseRecords } from "./browse.ts";
import { type BulkRequest, bulkAction } from "./bulk.ts";
import type { RecordDeps } from "./context.ts";
import { peopleCoverage } from "./coverage.ts";
import { type EditRequest, editRecord } from "./edit.ts";
import { projectActivity, recordHistory } from "./history.ts";
import { addKey, deleteKeys, listDeletedKeys, renameKey, restoreKey } from "./keys.ts";
import { type RevertRequest, revertRecord } from "./revert.ts";

export function createRecordUseCases(deps: Deps, events: EventBus) {
  const d: RecordDeps = { ...deps, events };
  return {
    browse: (p: Principal, projectId: string, params: BrowseParams) => browseRecords(d, p, projectId, params),
    edit: (p: Principal, projectId: string, req: EditRequest) => editRecord(d, p, projectId, req),
    bulk: (p: Principal, projectId: string, req: BulkRequest) => bulkAction(d, p, projectId, req),
    addKey: (p: Principal, projectId: string, req: Parameters<typeof addKey>[3]) =>
      addKey(d, p, projectId, req),
    renameKey: (p: Principal, projectId: string, req: Parameters<typeof renameKey>[3]) =>
      renameKey(d, p, projectId, req),
    deleteKeys: (p: Principal, projectId: string, req: Parameters<typeof deleteKeys>[3]) =>
      deleteKeys(d, p, projectId, req),
    listDeletedKeys: (p: Principal, projectId: string) => listDeletedKeys(d, p, projectId),
    restoreKey: (p: Principal, projectId: string, req: Parameters<typeof restoreKey>[3]) =>
      restoreKey(d, p, projectId, req),
    history: (p: Principal, projectId: string, q: Parameters<typeof recordHistory>[3]) =>
      recordHistory(d, p, projectId, q),
    revert: (p: Principal, projectId: string, req: RevertRequest) => revertRecord(d, p, projectId, req),
    activity: (p: Principal, projectId: string, q: Parameters<typeof projectActivity>[3]) =>
      projectActivity(d, p, projectId, q),
    coverage: (p: Principal, projectId: string) => peopleCoverage(d, p, projectId),
    /**
     * The operator's command line sets one record, unguarded (no version): history names the
     * operator. The project's organization is looked up first.
     */
    async setAsOperator(projectId: string, req: Omit<EditRequest, "version">) {
      const project = await deps.storage.projects.get(projectId);
      return editRecord(d, operatorPrincipal(project?.orgId ?? ""), projectId, { ...req, version: null });
    },
  };
}

export type RecordUseCases = ReturnType<typeof createRecordUseCases>;
export { isStaleRecordError, StaleRecordError } from "./stale.ts";
export type { ActivityView, ActorView, HistoryEntryView, RecordView } from "./views.ts";
export { recordEtag, recordView } from "./views.ts";

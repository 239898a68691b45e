import { authorize } from "../authorization.ts";
import type { Deps } from "../context.ts";
import { invalid } from "../errors.ts";
import type { EventBus } from "../events.ts";
import { newId } from "../ids.ts";
import type { Principal } from "../principal.ts";
import { visibleProject } from "../projects.ts";
import { type Project, TRANSLATION_STATUSES, type TranslationStatus } from "../types.ts";
import type { ActivityItem, HistoryAction } from "./types.ts";

/** What the record use cases share: the ports and the event bus they announce changes on. */
export interface RecordDeps extends Deps {
  events: EventBus;
}

/** The project if the principal's organization owns it (404 otherwise, as for an unknown id). */
export const projectOf = (deps: Deps, principal: Principal, projectId: string): Promise<Project> =>
  visibleProject(deps, principal, projectId, "projectId");

export function requireLanguage(project: Project, language: unknown, field = "language"): string {
  if (typeof language !== "string" || !project.languages.includes(language)) {
    throw invalid(`${field} must be one of the project's languages (${project.languages.join(", ")})`);
  }
  return language;
}

export function requireStatus(status: unknown, field = "status"): TranslationStatus {
  if (typeof status !== "string" || !(TRANSLATION_STATUSES as readonly string[]).includes(status)) {
    throw invalid(`${field} must be one of ${TRANSLATION_STATUSES.join(", ")}`);
  }
  return status as TranslationStatus;
}

/** Setting `approved` or `needs_review` is reviewing; `draft` and `pending` are editing. */
export const actionForStatus = (status: TranslationStatus) =>
  status === "approved" || status === "needs_review"
    ? ("records.review" as const)
    : ("records.edit" as const);

export function authorizeStatus(principal: Principal, status: TranslationStatus, language: string): void {
  authorize(principal, actionForStatus(status), language);
}

export function newActivity(
  deps: Deps,
  principal: Principal,
  project: Project,
  action: HistoryAction,
  over: Partial<ActivityItem> = {},
): ActivityItem {
  return {
    id: newId(),
    projectId: project.id,
    action,
    actor: principal.actor,
    jobId: null,
    language: null,
    key: null,
    detail: {},
    at: deps.clock.now().toISOString(),
    ...over,
  };
}

/** Tells listeners (caches, webhooks) that records of a language changed by a person or the app. */
export function announce(
  deps: RecordDeps,
  principal: Principal,
  project: Project,
  language: string,
  counts: { created: number; updated: number; deleted: number },
  at: string,
): void {
  if (counts.created + counts.updated + counts.deleted === 0) return;
  deps.events.emit("translations.changed", {
    orgId: project.orgId,
    projectId: project.id,
    language,
    ...counts,
    cause: { kind: "edit", actor: principal.actor },
    at,
  });
}

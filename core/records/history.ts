import { authorize } from "../authorization.ts";
import { invalid, notFound } from "../errors.ts";
import type { Principal } from "../principal.ts";
import { projectOf, type RecordDeps, requireLanguage } from "./context.ts";
import { type ActivityView, activityView, entryView, type HistoryEntryView } from "./views.ts";

const CURSOR = /^[0-9]{1,15}$/;

export function pageArgs(cursor: unknown, limit: unknown, max = 500, fallback = 50) {
  if (cursor !== undefined && cursor !== null && (typeof cursor !== "string" || !CURSOR.test(cursor))) {
    throw invalid("cursor must be a value a previous page returned");
  }
  const n = limit === undefined || limit === null ? fallback : Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalid(`limit must be an integer from 1 to ${max}`);
  return { cursor: (cursor as string | undefined) ?? null, limit: n };
}

/** One record's history, newest first. */
export async function recordHistory(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  q: { key: unknown; language: unknown; cursor?: unknown; limit?: unknown },
): Promise<{ data: HistoryEntryView[]; nextCursor: string | null }> {
  authorize(principal, "history.read");
  const project = await projectOf(deps, principal, projectId);
  if (typeof q.key !== "string") throw invalid("key is required");
  const language = requireLanguage(project, q.language);
  const page = pageArgs(q.cursor, q.limit);
  const [record] = await deps.storage.records.read(project.id, [q.key], [language]);
  if (!record) throw notFound("No such record");
  const entries = await deps.storage.records.history(record.id, page.cursor, page.limit);
  return { data: entries.items.map(entryView), nextCursor: entries.next };
}

/** The project's activity feed, newest first: one item per action (a push job is one item). */
export async function projectActivity(
  deps: RecordDeps,
  principal: Principal,
  projectId: string,
  q: { cursor?: unknown; limit?: unknown },
): Promise<{ data: ActivityView[]; nextCursor: string | null }> {
  authorize(principal, "history.read");
  const project = await projectOf(deps, principal, projectId);
  const page = pageArgs(q.cursor, q.limit);
  const items = await deps.storage.records.activity(project.id, page.cursor, page.limit);
  return { data: items.items.map(activityView), nextCursor: items.next };
}

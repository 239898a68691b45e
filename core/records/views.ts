import type { Warning } from "../checks/index.ts";
import type { Actor } from "../principal.ts";
import type { TranslationStatus } from "../types.ts";
import type { ActivityItem, HistoryEntry, RecordState } from "./types.ts";

/** Who changed something, as the workspace API shows it. */
export type ActorView =
  | { kind: "user"; id: string; name: string }
  | { kind: "api_key"; id: string; name: string }
  | { kind: "operator" }
  | { kind: "app"; name: string };

export function actorView(a: Actor): ActorView {
  switch (a.kind) {
    case "user":
      return { kind: "user", id: a.userId, name: a.name };
    case "api_key":
      return { kind: "api_key", id: a.keyId, name: a.name };
    case "operator":
      return { kind: "operator" };
    case "app":
      return { kind: "app", name: a.name };
  }
}

export interface RecordView {
  id: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  version: number;
  warnings: Warning[];
  updatedAt: string;
  updatedBy: ActorView | null;
}

export const recordView = (r: RecordState): RecordView => ({
  id: r.id,
  key: r.key,
  language: r.language,
  value: r.value,
  status: r.status,
  version: r.version,
  warnings: r.warnings,
  updatedAt: r.updatedAt,
  updatedBy: r.updatedBy === null ? null : actorView(r.updatedBy),
});

/** A record's ETag: its id and version, quoted. */
export const recordEtag = (r: { id: string; version: number }): string => `"${r.id}.${r.version}"`;

export interface HistoryEntryView {
  id: string;
  key: string;
  language: string;
  action: HistoryEntry["action"];
  actor: ActorView;
  jobId: string | null;
  at: string;
  /** null: the change created the record. */
  old: { value: string; status: TranslationStatus } | null;
  /** null: the change deleted the record. */
  new: { value: string; status: TranslationStatus } | null;
  version: number | null;
}

const side = (value: string | null, status: TranslationStatus | null) =>
  value === null || status === null ? null : { value, status };

export const entryView = (e: HistoryEntry): HistoryEntryView => ({
  id: e.id,
  key: e.key,
  language: e.language,
  action: e.action,
  actor: actorView(e.actor),
  jobId: e.jobId,
  at: e.at,
  old: side(e.oldValue, e.oldStatus),
  new: side(e.newValue, e.newStatus),
  version: e.version,
});

export interface ActivityView {
  id: string;
  action: ActivityItem["action"];
  actor: ActorView;
  jobId: string | null;
  language: string | null;
  key: string | null;
  detail: Record<string, number | string>;
  at: string;
}

export const activityView = (a: ActivityItem): ActivityView => ({
  id: a.id,
  action: a.action,
  actor: actorView(a.actor),
  jobId: a.jobId,
  language: a.language,
  key: a.key,
  detail: a.detail,
  at: a.at,
});

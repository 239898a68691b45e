/** The project's activity feed, newest first. */
import { apiData } from "../api.ts";
import { Notice } from "../base/field.tsx";
import { useAsync } from "../base/use-async.ts";
import { type ActivityItem, actorName, when } from "../types.ts";

const VERBS: Record<string, string> = {
  import: "imported",
  edit: "edited",
  bulk: "changed in bulk",
  "key.add": "added the key",
  "key.rename": "renamed a key to",
  "key.delete": "deleted",
  "key.restore": "restored",
  revert: "reverted",
  operator: "changed (operator)",
};

/** "imported fr (12 created, 3 updated)", "edited home.title [fr]". */
export function describeActivity(item: ActivityItem): string {
  const figures = Object.entries(item.detail ?? {})
    .filter(([k]) => k !== "from")
    // "1 record", not "1 records": the detail's names are plural nouns or participles.
    .map(([k, v]) => `${v} ${v === 1 && k.endsWith("s") ? k.slice(0, -1) : k}`)
    .join(", ");
  return [
    VERBS[item.action] ?? item.action,
    item.key,
    item.language ? `[${item.language}]` : "",
    figures ? `(${figures})` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function ActivityPanel({ projectId, refresh }: { projectId: string; refresh: number }) {
  const feed = useAsync(
    () => apiData<ActivityItem[]>("GET", `/projects/${encodeURIComponent(projectId)}/activity`),
    [projectId, refresh],
  );
  return (
    <section class="panel" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <Notice>{feed.error}</Notice>
      {feed.data?.length === 0 && <p class="hint">Nothing has happened yet.</p>}
      <ul class="plain">
        {(feed.data ?? []).slice(0, 30).map((item) => (
          <li key={item.id}>
            <strong>{actorName(item.actor)}</strong> {describeActivity(item)}{" "}
            <span class="hint">· {when(item.at)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

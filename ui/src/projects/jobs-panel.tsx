/**
 * Recent imports of the project, from its activity feed (a push is one item with its counts); the
 * feed is read again every few seconds so imports by CI show up while the page is open.
 */
import { useEffect } from "preact/hooks";
import { apiData } from "../api.ts";
import { Notice } from "../base/field.tsx";
import { useAsync } from "../base/use-async.ts";
import { type ActivityItem, actorName, type Job, when } from "../types.ts";

export const unfinished = (job: Job) => job.status === "pending" || job.status === "running";

export function jobWords(job: Job): string {
  if (job.status === "failed") return `failed: ${job.errorMessage ?? "unknown error"}`;
  if (job.status === "completed" && job.summary) {
    const s = job.summary;
    return `completed: ${s.created} created, ${s.updated} updated${s.deleted ? `, ${s.deleted} deleted` : ""}`;
  }
  return job.status;
}

const figures = (detail: Record<string, number | string>) =>
  ["created", "updated", "deleted"]
    .filter((k) => typeof detail[k] === "number" && (detail[k] as number) > 0)
    .map((k) => `${detail[k]} ${k}`)
    .join(", ") || "no change";

export function JobsPanel({ projectId, refresh }: { projectId: string; refresh: number }) {
  const feed = useAsync(
    () => apiData<ActivityItem[]>("GET", `/projects/${encodeURIComponent(projectId)}/activity?limit=100`),
    [projectId, refresh],
  );
  useEffect(() => {
    const timer = setInterval(feed.reload, 5000);
    return () => clearInterval(timer);
  }, [feed.reload]);
  const imports = (feed.data ?? []).filter((item) => item.action === "import").slice(0, 10);
  return (
    <section class="panel" aria-labelledby="jobs-title">
      <h2 id="jobs-title">Recent imports</h2>
      <Notice>{feed.error}</Notice>
      {feed.data && imports.length === 0 && <p class="hint">No imports yet.</p>}
      <ul class="plain">
        {imports.map((item) => (
          <li key={item.id}>
            <span class="chip approved">completed</span> {item.language && <strong>{item.language} </strong>}
            {figures(item.detail)}{" "}
            <span class="hint">
              · {actorName(item.actor)} · {when(item.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The project's recent import jobs with their status, as GET …/jobs gives them (newest first):
 * read again every 2 seconds while one is waiting or running, every 10 otherwise, so imports by CI
 * show up, and move from waiting to done, while the page is open.
 */
import { useEffect } from "preact/hooks";
import { apiData } from "../api.ts";
import { Notice } from "../base/field.tsx";
import { useAsync } from "../base/use-async.ts";
import { type Job, when } from "../types.ts";

export const unfinished = (job: Job) => job.status === "pending" || job.status === "running";

export function jobWords(job: Job): string {
  if (job.status === "failed") return `failed: ${job.errorMessage ?? "unknown error"}`;
  if (job.status === "completed" && job.summary) {
    const s = job.summary;
    return `completed: ${s.created} created, ${s.updated} updated${s.deleted ? `, ${s.deleted} deleted` : ""}`;
  }
  return job.status;
}

const STATUS_WORD: Record<Job["status"], string> = {
  pending: "waiting",
  running: "running",
  completed: "completed",
  failed: "failed",
};
const STATUS_CHIP: Record<Job["status"], string> = {
  pending: "draft",
  running: "pending",
  completed: "approved",
  failed: "needs_review",
};

export function JobsPanel({ projectId, refresh }: { projectId: string; refresh: number }) {
  const jobs = useAsync(
    () => apiData<Job[]>("GET", `/projects/${encodeURIComponent(projectId)}/jobs`),
    [projectId, refresh],
  );
  const busy = (jobs.data ?? []).some(unfinished);
  useEffect(() => {
    const timer = setInterval(jobs.reload, busy ? 2000 : 10_000);
    return () => clearInterval(timer);
  }, [jobs.reload, busy]);
  const list = (jobs.data ?? []).slice(0, 10);
  return (
    <section class="panel" aria-labelledby="jobs-title">
      <h2 id="jobs-title">Recent imports</h2>
      <Notice>{jobs.error}</Notice>
      {jobs.data && list.length === 0 && <p class="hint">No imports yet.</p>}
      <ul class="plain" aria-live="polite">
        {list.map((job) => (
          <li key={job.id}>
            <span class={`chip ${STATUS_CHIP[job.status]}`}>{STATUS_WORD[job.status]}</span>{" "}
            {job.status === "completed" && job.summary
              ? jobWords(job).replace(/^completed: /, "")
              : job.status === "failed"
                ? job.errorMessage
                : "import accepted"}{" "}
            <span class="hint">· {when(job.updatedAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

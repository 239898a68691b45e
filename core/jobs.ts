import { authorize } from "./authorization.ts";
import type { Deps } from "./context.ts";
import { notFound } from "./errors.ts";
import type { Principal } from "./principal.ts";
import { requireUuid } from "./projects.ts";
import type { ImportSummary, JobStatus } from "./types.ts";

/** The Import job of API.md. */
export interface JobView {
  id: string;
  projectId: string;
  type: "import";
  status: JobStatus;
  summary: ImportSummary;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Another organization's job is absent (404), like its projects. */
export async function getJob(deps: Deps, principal: Principal, jobId: string): Promise<JobView> {
  authorize(principal, "jobs.read");
  const job = await deps.storage.jobs.get(requireUuid(jobId, "jobId"));
  if (!job || job.orgId !== principal.orgId) throw notFound("Job not found");
  return {
    id: job.id,
    projectId: job.projectId,
    type: job.type,
    status: job.status,
    summary: { ...job.summary },
    errorMessage: job.errorMessage,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

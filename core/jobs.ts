import { authorize } from "./authorization.ts";
import type { Deps } from "./context.ts";
import { notFound } from "./errors.ts";
import type { Principal } from "./principal.ts";
import { requireUuid, visibleProject } from "./projects.ts";
import type { ImportSummary, Job, JobStatus } from "./types.ts";

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
  return jobView(job);
}

/** Most recent jobs of a project a page shows (its "recent imports"). */
export const RECENT_JOBS = 20;

/** The project's most recent jobs, newest first (at most RECENT_JOBS); 404 for another org's project. */
export async function listProjectJobs(
  deps: Deps,
  principal: Principal,
  projectId: string,
): Promise<JobView[]> {
  authorize(principal, "jobs.read");
  const project = await visibleProject(deps, principal, projectId, "projectId");
  return (await deps.storage.jobs.listByProject(project.id, RECENT_JOBS)).map(jobView);
}

function jobView(job: Job): JobView {
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

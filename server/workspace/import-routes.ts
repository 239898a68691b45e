import { Elysia, t } from "elysia";
import { notFound } from "../../core/errors.ts";
import { ImportJob, PushPreview } from "../schemas.ts";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors } from "./schemas.ts";

/**
 * A JSON file uploaded as a push from the workspace (the same core use case as POST /api/v1/push,
 * acting as the signed-in person), and its job's progress.
 */
export const importRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-imports" })
    .post(
      `${WORKSPACE_PREFIX}/projects/:projectId/imports`,
      async ({ request, params, body, set }) => {
        const { principal, project } = await kit.inProject(request, params.projectId);
        const result = await kit.parlance.push(principal, { ...body, projectId: project.id });
        if (result.kind === "preview") return { data: result.preview };
        set.status = 202;
        set.headers.location = `${WORKSPACE_PREFIX}/projects/${project.id}/jobs/${result.accepted.jobId}`;
        return { data: { jobId: result.accepted.jobId } };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: t.Object({ projectId: t.String() }),
        body: t.Object({
          content: t.String({ description: "The JSON file's text" }),
          language: t.String(),
          dryRun: t.Optional(t.Boolean({ description: "Preview only: nothing is written, no job" })),
          importMode: t.Optional(t.Union([t.Literal("merge"), t.Literal("replace")])),
          status: t.Optional(
            t.String({
              description:
                "Status of the imported rows: default approved where the person may review the language; for anyone else new and changed rows pending, the others unchanged; approved or needs_review by anyone else is 403",
            }),
          ),
        }),
        response: {
          200: data(PushPreview, "The dry run: what the import would do"),
          202: data(t.Object({ jobId: t.String({ format: "uuid" }) }), "Accepted: the import job runs"),
          ...errors(400, 401, 402, 403, 404, 413),
        },
        detail: describe({
          id: "importFile",
          summary: "Upload a JSON file as a push (translations.import)",
          description:
            "The push of /api/v1/push with the person's role: a dry run previews, otherwise a job is queued " +
            "(poll GET …/jobs/{jobId}).",
          tag: "Imports",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/projects/:projectId/jobs`,
      async ({ request, params }) => {
        const { principal, project } = await kit.inProject(request, params.projectId);
        return { data: await kit.parlance.listProjectJobs(principal, project.id) };
      },
      {
        ...requireUser(kit),
        params: t.Object({ projectId: t.String() }),
        response: { 200: data(t.Array(ImportJob), "Newest first, at most 20"), ...errors(400, 401, 404) },
        detail: describe({
          id: "listProjectJobs",
          summary: "The project's recent import jobs, with their status",
          tag: "Imports",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/projects/:projectId/jobs/:jobId`,
      async ({ request, params }) => {
        const { principal, project } = await kit.inProject(request, params.projectId);
        const job = await kit.parlance.getJob(principal, params.jobId);
        if (job.projectId !== project.id) throw notFound("Job not found");
        return { data: job };
      },
      {
        ...requireUser(kit),
        params: t.Object({ projectId: t.String(), jobId: t.String() }),
        response: { 200: data(ImportJob, "The import job"), ...errors(400, 401, 404) },
        detail: describe({ id: "getProjectJob", summary: "An import job of the project", tag: "Imports" }),
      },
    );

import { Elysia, t } from "elysia";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { DashboardProjectSchema, data, describe, errors, WorkspaceProjectSchema } from "./schemas.ts";

/** Projects for people: the dashboard list with coverage, create, read with abilities, update. */
export const projectRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-projects" })
    .get(
      `${WORKSPACE_PREFIX}/orgs/:orgId/projects`,
      async ({ request, params }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return { data: await kit.parlance.people.listProjects(principal) };
      },
      {
        ...requireUser(kit),
        params: t.Object({ orgId: t.String() }),
        response: {
          200: data(t.Array(DashboardProjectSchema), "Projects by name, with coverage"),
          ...errors(401, 404),
        },
        detail: describe({
          id: "listOrgProjects",
          summary: "The organization's projects with coverage per language",
          tag: "Projects",
        }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/orgs/:orgId/projects`,
      async ({ request, params, body, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        set.status = 201;
        return { data: await kit.parlance.people.createProject(principal, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: t.Object({ orgId: t.String() }),
        body: t.Object({
          name: t.String({ description: "1 to 200 characters" }),
          baseLanguage: t.String({ description: "Locale code of the source language" }),
          languages: t.Optional(t.Array(t.String(), { description: "Target languages (the base is added)" })),
        }),
        response: { 201: data(WorkspaceProjectSchema, "The new project"), ...errors(400, 401, 403, 404) },
        detail: describe({
          id: "createOrgProject",
          summary: "Create a project (projects.manage)",
          tag: "Projects",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/projects/:projectId`,
      async ({ request, params }) => {
        const { principal, project } = await kit.inProject(request, params.projectId);
        return { data: kit.parlance.people.describeProject(principal, project) };
      },
      {
        ...requireUser(kit),
        params: t.Object({ projectId: t.String() }),
        response: {
          200: data(WorkspaceProjectSchema, "The project and what you may do in it"),
          ...errors(401, 404),
        },
        detail: describe({
          id: "getWorkspaceProject",
          summary: "A project and your abilities in it",
          tag: "Projects",
        }),
      },
    )
    .patch(
      `${WORKSPACE_PREFIX}/projects/:projectId`,
      async ({ request, params, body }) => {
        const { principal, project } = await kit.inProject(request, params.projectId);
        return { data: await kit.parlance.people.updateProject(principal, project, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: t.Object({ projectId: t.String() }),
        body: t.Object({
          name: t.Optional(t.String()),
          addLanguages: t.Optional(
            t.Array(t.String(), { description: "Languages to add (kept if present)" }),
          ),
        }),
        response: {
          200: data(WorkspaceProjectSchema, "The project as changed"),
          ...errors(400, 401, 403, 404),
        },
        detail: describe({
          id: "updateWorkspaceProject",
          summary: "Rename a project or add languages (projects.manage)",
          tag: "Projects",
        }),
      },
    );

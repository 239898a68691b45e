import type { Elysia } from "elysia";
import { apiKeyRoutes } from "./api-key-routes.ts";
import { exportRoutes } from "./export-routes.ts";
import { importRoutes } from "./import-routes.ts";
import { invitationRoutes } from "./invitation-routes.ts";
import { keyRoutes } from "./key-routes.ts";
import type { WorkspaceKit } from "./kit.ts";
import { meRoutes } from "./me-routes.ts";
import { membersRoutes } from "./members-routes.ts";
import { projectRoutes } from "./project-routes.ts";
import { recordRoutes } from "./record-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { setupRoutes } from "./setup-routes.ts";

// biome-ignore lint/suspicious/noExplicitAny: each route file is its own Elysia type; only `.use` needs them.
export type WorkspaceRouteFile = (kit: WorkspaceKit) => Elysia<any, any, any, any, any, any, any>;

/**
 * Every route file of /api/workspace, one concept each. A new file is one more line here; each
 * receives the kit (the core, who is signed in, membership checks) and returns an Elysia plugin.
 */
export const WORKSPACE_ROUTES: readonly WorkspaceRouteFile[] = [
  sessionRoutes,
  meRoutes,
  setupRoutes,
  membersRoutes,
  invitationRoutes,
  importRoutes,
  exportRoutes,
  apiKeyRoutes,
  projectRoutes,
  recordRoutes,
  keyRoutes,
];

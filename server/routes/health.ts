import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { HTTP_STATUS } from "../http-errors.ts";
import { operation } from "../openapi/operation.ts";
import { component } from "../schemas.ts";

const Health = component(
  "Health",
  t.Object(
    { status: t.UnionEnum(["ok", "unavailable"], { default: undefined }) },
    { description: "Whether storage answers" },
  ),
);

/** `GET /healthz`: no auth, outside /api/v1; 200 once storage answers, 503 otherwise. */
export const healthRoutes = (parlance: Parlance) =>
  new Elysia({ name: "health" }).get(
    "/healthz",
    async ({ set }) => {
      try {
        await parlance.health();
        return { status: "ok" };
      } catch {
        set.status = HTTP_STATUS.unavailable;
        return { status: "unavailable" };
      }
    },
    {
      response: { 200: Health, 503: Health },
      detail: operation({
        id: "health",
        summary: "Health check",
        description: "200 once storage answers, 503 otherwise. Outside /api/v1: no rate limit, no headers.",
        tag: "Operations",
        scope: "public",
      }),
    },
  );

import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";

/** `GET /healthz`: no auth, outside /api/v1; 200 once storage answers, 503 otherwise. */
export const healthRoutes = (parlance: Parlance) =>
  new Elysia({ name: "health" }).get(
    "/healthz",
    async ({ set }) => {
      try {
        await parlance.health();
        return { status: "ok" };
      } catch {
        set.status = 503;
        return { status: "unavailable" };
      }
    },
    {
      response: { 200: t.Object({ status: t.String() }), 503: t.Object({ status: t.String() }) },
      detail: { summary: "Health check", tags: ["Operations"], security: [] },
    },
  );

import { Elysia, ValidationError } from "elysia";
import { invalid } from "../../core/errors.ts";
import { type Parlance, ParlanceError, SignInThrottled, StaleRecordError } from "../../core/index.ts";
import { readBody } from "../body.ts";
import { asParlanceError, errorBody, HTTP_STATUS, jsonResponse } from "../http-errors.ts";
import { createRouteIndex } from "../method-not-allowed.ts";
import { requestPath, routable } from "../request-target.ts";
import { describeValidation } from "../validation-message.ts";
import { checkCsrf } from "./csrf.ts";
import { createKit, WORKSPACE_PREFIX, type WorkspaceOptions } from "./kit.ts";
import { buildWorkspaceDocument, WORKSPACE_SPEC_PATH } from "./openapi.ts";
import { WORKSPACE_ROUTES } from "./routes.ts";

export interface Workspace {
  /** The Elysia app of /api/workspace (its routes carry the full path). */
  app: ReturnType<typeof createWorkspaceApp>;
  /** Serves one request; `address` is the client's, as the serving layer determined it. */
  handle(request: Request, address: string): Promise<Response>;
}

function createWorkspaceApp(
  parlance: Parlance,
  options: WorkspaceOptions,
  addresses: WeakMap<Request, string>,
  onInternalError?: (error: unknown, request: Request, status: number) => void,
) {
  const kit = createKit(parlance, options, addresses);
  let routeIndex: ReturnType<typeof createRouteIndex> | null = null;
  let document: Record<string, unknown> | undefined;

  const respond = (error: ParlanceError, request: Request, headers: Record<string, string>) => {
    const status = HTTP_STATUS[error.code];
    if (status >= 500) onInternalError?.(error.details ?? error, request, status);
    const extra: Record<string, string> = { "cache-control": "no-store" };
    if (error instanceof SignInThrottled) extra["retry-after"] = String(error.retryAfterSeconds);
    const body: Record<string, unknown> = {
      ...errorBody(error, parlance.now(), options.development ?? false),
    };
    // 412 of a record edit: the record as it is now, so the caller can merge without another read.
    if (error instanceof StaleRecordError) body.current = error.current;
    return jsonResponse(status, body, {
      ...headers,
      ...extra,
    });
  };

  let app = new Elysia({ name: "parlance-workspace" })
    .onRequest(({ request, set }) => {
      set.headers["cache-control"] = "no-store";
      checkCsrf(request, kit.originOf, Boolean(options.publicUrl));
    })
    .onParse(({ request, contentType }) => readBody(request, contentType))
    .onError(({ code, error, request, set }) => {
      const headers = { ...(set.headers as Record<string, string>) };
      let failure: ParlanceError;
      const path = requestPath(request.url);
      if (code === "NOT_FOUND") {
        routeIndex ??= createRouteIndex(app.routes);
        const allowed = routeIndex.methodsFor(path);
        if (allowed.length > 0) {
          headers.allow = allowed.join(", ");
          failure = new ParlanceError(
            "method_not_allowed",
            `Method ${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
          );
        } else failure = new ParlanceError("not_found", `No route ${request.method} ${path}`);
      } else if (code === "VALIDATION" || error instanceof ValidationError) {
        failure = invalid(describeValidation(error as ValidationError), (error as Error).message);
      } else if (code === "PARSE") {
        const cause = (error as Error).cause;
        failure = cause instanceof ParlanceError ? cause : invalid("Request body could not be parsed");
      } else failure = asParlanceError(error);
      return respond(failure, request, headers);
    })
    .get(
      WORKSPACE_SPEC_PATH,
      () => {
        document ??= buildWorkspaceDocument(app, options.basePath ?? "");
        return document;
      },
      { detail: { hide: true } },
    );
  for (const routes of WORKSPACE_ROUTES) app = app.use(routes(kit));
  return app;
}

/** The workspace API (`/api/workspace`): people signed in with a session cookie. */
export function createWorkspace(
  parlance: Parlance,
  options: WorkspaceOptions & {
    onInternalError?: (error: unknown, request: Request, status: number) => void;
  } = {},
): Workspace {
  const addresses = new WeakMap<Request, string>();
  const app = createWorkspaceApp(parlance, options, addresses, options.onInternalError);
  return {
    app,
    handle(request, address) {
      const routed = routable(request);
      addresses.set(routed, address);
      return app.handle(routed);
    },
  };
}

export { WORKSPACE_PREFIX };

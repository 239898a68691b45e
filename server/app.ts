import { Elysia, ValidationError } from "elysia";
import { createBunRouteHandler } from "elysia/adapter/bun/compose";
import { invalid } from "../core/errors.ts";
import {
  type Admission,
  type Parlance,
  ParlanceError,
  type RateDecision,
  retryAfterSeconds,
} from "../core/index.ts";
import { normalizeBasePath } from "./base-path.ts";
import { MAX_BODY_BYTES, MAX_TOKEN_BODY_BYTES, readBody } from "./body.ts";
import { clientAddress, type PeerInfo, proxyHops, type TrustProxy } from "./client-address.ts";
import {
  asParlanceError,
  errorBody,
  HTTP_STATUS,
  jsonResponse,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from "./http-errors.ts";
import { createRouteIndex } from "./method-not-allowed.ts";
import { openApiRoutes } from "./openapi/routes.ts";
import { projectNowRoute } from "./project-now.ts";
import { rateHeaders, setRateHeaders } from "./rate-headers.ts";
import { requestLimitError } from "./request-limits.ts";
import { admissionOf, rememberAdmission } from "./request-state.ts";
import { requestPath, routable } from "./request-target.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { authTokenRoutes, TOKEN_PATH } from "./routes/auth-token.ts";
import { coverageRoutes } from "./routes/coverage.ts";
import { healthRoutes } from "./routes/health.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { keyInfoRoutes } from "./routes/key-info.ts";
import { projectRoutes } from "./routes/projects.ts";
import { pullRoutes } from "./routes/pull.ts";
import { pushRoutes } from "./routes/push.ts";
import { translationRoutes } from "./routes/translations.ts";
import { workspaceUiRoutes } from "./ui/routes.ts";
import { describeValidation, validationDetails } from "./validation-message.ts";
import { createWorkspace, WORKSPACE_PREFIX } from "./workspace/app.ts";

export interface ServerOptions {
  /** Adds `details` to Error objects (PARLANCE_ENV=development). */
  development?: boolean;
  /**
   * Reverse proxies of the operator's in front (a number of hops; `true`: one): the client address
   * is read that many hops from the right of X-Forwarded-For (server/client-address.ts).
   */
  trustProxy?: TrustProxy;
  /**
   * Where 5xx answers are reported, with their status: 500 (a bug) or 503 (storage does not
   * answer, a cause outside Parlance); never receives secrets.
   */
  onInternalError?: (error: unknown, request: Request, status: number) => void;
  /** PARLANCE_PUBLIC_URL: the workspace's origin for links, the CSRF check and Secure cookies. */
  publicUrl?: string;
  /**
   * The path a host serves the API under, as browsers see it ("/i18n"), when the host strips it
   * before the request reaches Parlance (Hono's `mount`): the docs page loads its files and the
   * document from there, and the document's `servers` names it. parlancePlugin sets it from its
   * prefix. Default: the root.
   */
  basePath?: string;
  /** Told as each request arrives, before anything else (server/traffic.ts). */
  onRequest?: () => void;
  /**
   * Called once a push's body of COLLECT_AFTER_BODY_BYTES or more is released: the Bun server
   * collects and hands the freed pages back (Host), under light traffic only (server/serve.ts).
   * The runtime runs the same before a large push's content is read (server/runtime.ts).
   */
  returnFreeMemory?: () => void;
  /**
   * The listener gathers each body of declared length into one buffer of its own (Host.buffersBodies):
   * bodies are taken whole from it rather than read as chunks (server/body.ts). Default: false.
   */
  wholeBodies?: boolean;
  /**
   * The listener writes string chunks of a streamed body as UTF-8 (Host.writesTextChunks): exports
   * stream their pieces as text rather than encoding each (server/file-body.ts). Default: false.
   */
  textChunks?: boolean;
}

/** CONTRACT §7: deprecated since 2026-01-01 (RFC 9745), no removal date. */
const DEPRECATED: Record<string, string> = {
  "/api/v1/export": "/api/v1/pull",
  "/api/v1/import": "/api/v1/push",
};
const DEPRECATION = "@1767225600";

const API_PREFIX = "/api/v1";

/** On every answer: no browser may guess another media type than the one declared. */
const SECURITY_HEADERS = { "x-content-type-options": "nosniff" };
const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/** The HTTP composition root: the Elysia app around one Parlance. */
export function createServer(parlance: Parlance, options: ServerOptions = {}) {
  const development = options.development ?? false;
  const trustProxy = proxyHops(options.trustProxy);
  let routeIndex: ReturnType<typeof createRouteIndex> | null = null;
  const workspace = createWorkspace(parlance, {
    publicUrl: options.publicUrl,
    development,
    onInternalError: options.onInternalError,
    textChunks: options.textChunks,
    basePath: normalizeBasePath(options.basePath ?? ""),
  });

  /** The Error object for `error`; `rate` is the window a 429 refers to (for Retry-After). */
  const respond = (
    error: ParlanceError,
    headers: Record<string, string>,
    request: Request,
    rate?: RateDecision,
  ) => {
    const status = HTTP_STATUS[error.code];
    if (status >= 500) options.onInternalError?.(error.details ?? error, request, status);
    const extra: Record<string, string> = {};
    if (error.code === "unauthenticated") {
      const sent = /^bearer\s+\S/i.test(request.headers.get("authorization") ?? "");
      extra["www-authenticate"] = sent
        ? 'Bearer realm="parlance", error="invalid_token"'
        : 'Bearer realm="parlance"';
    }
    if (rate) extra["retry-after"] = String(retryAfterSeconds(rate, parlance.now().getTime()));
    if (error.code === "unavailable") extra["retry-after"] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    if (error.retryAfter !== undefined) extra["retry-after"] = String(error.retryAfter);
    const body = errorBody(error, parlance.now(), development);
    if (development && body.details === undefined && (status === 400 || status === 413 || status === 415)) {
      // Every refused input explains itself in development (CONTRACT §5), also when core's
      // message says it all: the operation's rules are one link away.
      body.details = `${request.method} ${requestPath(request.url)}: this operation's parameters and body are described in /api/v1/openapi.json and at /api/v1/docs`;
    }
    return jsonResponse(status, body, { ...headers, ...extra });
  };

  /**
   * The token endpoint counts its own requests once it knows the client; when it fails before
   * that (wrong method, unreadable body) the caller's address is charged here, like any request
   * without credentials, and refused once its window is spent.
   */
  const admitAnonymously = async (request: Request, server: PeerInfo | null) => {
    const admission = await parlance.admit({
      authorization: null,
      address: () => clientAddress(request, server, trustProxy),
    });
    rememberAdmission(request, admission);
    return admission;
  };

  /** The rate-limit headers of a decided admission, and its 429 when the window is spent. */
  const admitted = (request: Request, headers: Record<string, string>, admission: Admission) => {
    rememberAdmission(request, admission);
    setRateHeaders(headers, admission.rate);
    if (admission.limited) return respond(admission.limited, headers, request, admission.rate);
  };

  /** A request over the URL or header caps: 414/431, charged as anonymous on /api/v1. */
  const overLimitAnswer = async (
    request: Request,
    headers: Record<string, string>,
    overLimit: ParlanceError,
  ) => {
    // An /api/v1 answer carries the rate-limit headers (CONTRACT §4): the caller is charged as anonymous.
    if (isApiPath(requestPath(request.url))) {
      const admission = await admitAnonymously(request, peers()).catch(() => null);
      if (admission) setRateHeaders(headers, admission.rate);
      if (admission?.limited) return respond(admission.limited, headers, request, admission.rate);
    }
    return respond(overLimit, headers, request);
  };

  /**
   * Before routing: the caps, the workspace's own app, then /api/v1's admission (key, rate limit,
   * count). An answer stops the request here; `undefined` lets it on to its route.
   */
  const beforeRouting = (
    request: Request,
    set: { headers: Record<string, string> },
  ): Response | Promise<Response | undefined> | undefined => {
    options.onRequest?.();
    const url = request.url;
    const overLimit = requestLimitError(request, url);
    if (overLimit) return overLimitAnswer(request, set.headers, overLimit);
    const path = requestPath(url);
    // The workspace is its own app, handed the request (within the URL and header limits) before any parsing: none of /api/v1's
    // hooks (API keys, rate-limit headers, body reading) run for it.
    if (path === WORKSPACE_PREFIX || path.startsWith(`${WORKSPACE_PREFIX}/`))
      return workspace.handle(request, clientAddress(request, peers(), trustProxy));
    if (!isApiPath(path) || path === TOKEN_PATH) return;
    const successor = DEPRECATED[path];
    if (successor) {
      set.headers.deprecation = DEPRECATION;
      set.headers.link = `<${successor}>; rel="successor-version"`;
    }
    const caller = {
      authorization: request.headers.get("authorization"),
      address: () => clientAddress(request, peers(), trustProxy),
    };
    // Decided at once when the store holds the key and the limiter the window (issue 13, small GET).
    const decided = parlance.admitNow(caller);
    if (decided) return admitted(request, set.headers, decided);
    return parlance.admit(caller).then((admission) => admitted(request, set.headers, admission));
  };

  /**
   * The listening server (Bun's, through Elysia), which tells a request's peer address; null when
   * requests come through `app.handle` (the fetch handler, the plugin, tests). The hooks read it
   * here rather than from their context: a global hook that names `server` in its parameters makes
   * Elysia define a `server` getter on every request of every route (its "sucrose" inference).
   */
  const peers = (): PeerInfo | null => app.server;
  const projectNow = projectNowRoute({
    parlance,
    onRequest: options.onRequest,
    address: (request) => clientAddress(request, peers(), trustProxy),
    securityHeaders: SECURITY_HEADERS,
    respond,
  });
  const PROJECT_PATH = `${API_PREFIX}/project`;
  /**
   * What Bun's router would call for the route without `hostRoutes`: Elysia's own handler for it,
   * made once the app is compiled. Not `app.handle`, whose router reads the path from a fixed
   * offset of the URL and misroutes a short Host (`http://api/api/v1/project`).
   */
  let elysiaRoute: ((request: Request) => Response | Promise<Response>) | undefined;
  const viaElysia = (request: Request): Response | Promise<Response> => {
    elysiaRoute ??= createBunRouteHandler(
      app,
      app.routes.find((route) => route.method === "GET" && route.path === PROJECT_PATH) as never,
    ) as (request: Request) => Response | Promise<Response>;
    return elysiaRoute(request);
  };
  /**
   * Routes Bun's own router answers when the app listens on Bun (Elysia hands them to Bun.serve):
   * the small GET, answered there when it can be decided at once, else by the app's own route
   * (server/project-now.ts). `app.handle` (the fetch handler, the plugin, Deno) never sees them.
   */
  const hostRoutes = {
    [PROJECT_PATH]: {
      GET: (request: Request): Response | Promise<Response> => projectNow(request) ?? viaElysia(request),
    },
    // Every path Bun's router does not match, instead of the listener's fallback (Elysia's general
    // router), which would misread the path of a short Host or a Host-less request (request-target.ts).
    "/*": (request: Request): Response | Promise<Response> => app.fetch(routable(request)),
  };
  const app = new Elysia({ name: "parlance", serve: { routes: hostRoutes } })
    .headers(SECURITY_HEADERS)
    // A plain function, not `async`: the common request (key, project and window in memory) is
    // decided without a promise of its own, and only the paths that wait return one. Elysia still
    // awaits the hook's result (its source reads `=> f(`, which it takes for asynchronous), so a
    // promise is never mistaken for the early answer (test/server/hook-inference.test.ts).
    .onRequest(({ request, set }) => beforeRouting(request, set as { headers: Record<string, string> }))
    .onParse(({ request, contentType }) => {
      // A caller without credentials learns nothing more (401), and its body is never read.
      const admission = admissionOf(request);
      if (admission && !admission.principal && admission.authError) throw admission.authError;
      const limit = requestPath(request.url) === TOKEN_PATH ? MAX_TOKEN_BODY_BYTES : MAX_BODY_BYTES;
      return readBody(request, contentType, limit, options.wholeBodies);
    })
    .onError(async ({ code, error, set, request }) => {
      const server = peers();
      const path = requestPath(request.url);
      let failure: ParlanceError;
      const headers = { ...(set.headers as Record<string, string>) };
      if (isApiPath(path) && !admissionOf(request)) {
        try {
          const admission = await admitAnonymously(request, server);
          Object.assign(headers, rateHeaders(admission.rate));
          if (admission.limited) return respond(admission.limited, headers, request, admission.rate);
        } catch {
          // Storage is down: the error answer still goes out, without rate-limit headers.
        }
      }
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
        failure = invalid(
          describeValidation(error as ValidationError),
          validationDetails(error as ValidationError),
        );
      } else if (code === "PARSE") {
        const cause = (error as Error).cause;
        failure = cause instanceof ParlanceError ? cause : invalid("Request body could not be parsed");
      } else {
        failure = asParlanceError(error);
      }
      if (path === TOKEN_PATH && request.method === "POST" && failure.code === "invalid_input") {
        // CONTRACT §3: the token endpoint answers an unreadable body in OAuth's own error shape.
        const oauth = {
          error: "invalid_request",
          error_description: failure.message,
          timestamp: parlance.now().toISOString(),
        };
        return jsonResponse(HTTP_STATUS[failure.code], oauth, {
          ...headers,
          "cache-control": "no-store",
          pragma: "no-cache",
        });
      }
      return respond(failure, headers, request);
    })
    .use(openApiRoutes(normalizeBasePath(options.basePath ?? "")))
    .use(workspaceUiRoutes(normalizeBasePath(options.basePath ?? "")))
    .use(healthRoutes(parlance))
    .use(keyInfoRoutes(parlance))
    .use(projectRoutes(parlance))
    .use(pullRoutes(parlance, options.textChunks ?? false))
    .use(pushRoutes(parlance, options.returnFreeMemory))
    .use(jobRoutes(parlance))
    .use(coverageRoutes(parlance))
    .use(translationRoutes(parlance))
    .use(apiKeyRoutes(parlance))
    .use(authTokenRoutes(parlance, { trustProxy }));
  return app;
}

export type ParlanceServer = ReturnType<typeof createServer>;

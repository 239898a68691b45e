import type { Parlance, ParlanceError, RateDecision } from "../core/index.ts";
import { asParlanceError } from "./http-errors.ts";
import { setRateHeaders } from "./rate-headers.ts";
import { requestLimitError } from "./request-limits.ts";
import { unauthenticatedError } from "./request-state.ts";

/**
 * The one query this route answers: the project id alone, in the forms the route's query schema
 * accepts (server/schemas.ts `Uuid`, TypeBox's `uuid` format: hex digits in either case, an optional
 * `urn:uuid:`; the parameter's name as written, as the query parser reads it).
 * Anything else (no id, other or repeated parameters, percent-encoding) goes to the Elysia route.
 */
const PROJECT_ID_ONLY = /^project_id=(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

const JSON_TYPE = "application/json;charset=utf-8";

export interface ProjectNowDeps {
  parlance: Parlance;
  /** Told as each request this route answers arrives (ServerOptions.onRequest). */
  onRequest?: () => void;
  /** The client address the anonymous limiter charges (server/client-address.ts). */
  address: (request: Request) => string;
  /** The headers every answer carries before the rate-limit ones (server/app.ts). */
  securityHeaders: Readonly<Record<string, string>>;
  /** The app's Error object answer, the one its error hook sends. */
  respond: (
    error: ParlanceError,
    headers: Record<string, string>,
    request: Request,
    rate?: RateDecision,
  ) => Response;
}

/**
 * `GET /api/v1/project?project_id=…` answered in Bun's router, without Elysia's request lifecycle
 * (issue 13, small GET: about a fifth of the server's CPU per request under the bench's load).
 * It is the Elysia route's answer, made of the same parts: the request caps, `admitNow`, the
 * rate-limit headers, `getProjectNow` (or `getProject` when the project is not in memory), and the
 * app's own Error objects. It returns `undefined`, having changed nothing, for every request it does
 * not answer (another query, a request over the caps, an admission that has to wait): the caller
 * hands those to the Elysia route (server/app.ts). test/http/project-now.test.ts holds the two
 * answers equal.
 */
export function projectNowRoute(deps: ProjectNowDeps) {
  const { parlance, respond } = deps;
  const securityHeaders = Object.entries(deps.securityHeaders);
  /**
   * `headers` with the app's, in the app's order (security, then rate limit): built in one object,
   * as object spreads cost more per request than the rest of the answer's headers.
   */
  const withAppHeaders = (headers: Record<string, string>, rate: RateDecision) => {
    for (const [name, value] of securityHeaders) headers[name] = value;
    setRateHeaders(headers, rate);
    return headers;
  };
  const errorHeaders = (rate: RateDecision) => withAppHeaders({}, rate);
  const answer = (project: unknown, rate: RateDecision) =>
    new Response(JSON.stringify({ success: true, data: project }), {
      headers: withAppHeaders({ "content-type": JSON_TYPE }, rate),
    });
  return (request: Request): Response | Promise<Response> | undefined => {
    const url = request.url;
    const query = url.indexOf("?");
    if (query < 0 || !PROJECT_ID_ONLY.test(url.slice(query + 1))) return undefined;
    if (requestLimitError(request, url)) return undefined;
    // Decided at once, or not here: an admission that waits (a key not in memory) is the app's,
    // and so is one that fails (a store that does not answer), before anything was counted.
    let admission: ReturnType<Parlance["admitNow"]>;
    try {
      admission = parlance.admitNow({
        authorization: request.headers.get("authorization"),
        address: () => deps.address(request),
      });
    } catch {
      return undefined;
    }
    if (!admission) return undefined;
    deps.onRequest?.();
    const rate = admission.rate;
    if (admission.limited) return respond(admission.limited, errorHeaders(rate), request, rate);
    const principal = admission.principal;
    if (!principal) return respond(unauthenticatedError(admission), errorHeaders(rate), request);
    const id = url.slice(query + "?project_id=".length);
    try {
      const project = parlance.getProjectNow(principal, id);
      if (project) return answer(project, rate);
    } catch (error) {
      return respond(asParlanceError(error), errorHeaders(rate), request);
    }
    return parlance.getProject(principal, id).then(
      (project) => answer(project, rate),
      (error) => respond(asParlanceError(error), errorHeaders(rate), request),
    );
  };
}

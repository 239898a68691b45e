import { invalid } from "../../core/errors.ts";
import type { Parlance, Project, Session, User, UserPrincipal } from "../../core/index.ts";
import { ParlanceError } from "../../core/index.ts";
import { parsedBody } from "../body.ts";
import { refuseNul } from "../no-nul.ts";
import { type IntegerRange, readQueryIntegers } from "../query-integer.ts";
import { refuseRepeatedQuery } from "../query-once.ts";
import { requestOrigin } from "../request-target.ts";
import { readSessionCookie } from "./cookies.ts";

export const WORKSPACE_PREFIX = "/api/workspace";

export interface WorkspaceOptions {
  /** PARLANCE_PUBLIC_URL: the origin for links, the CSRF check and the cookie's Secure flag. */
  publicUrl?: string;
  /** Adds `details` to Error objects. */
  development?: boolean;
  /** Exports stream their pieces as text (ServerOptions.textChunks). */
  textChunks?: boolean;
  /** Where a host mounted the API (ServerOptions.basePath): the document's server URL. */
  basePath?: string;
}

/** Who made a request: the session behind its cookie and its user. */
export interface SignedIn {
  session: Session;
  user: User;
}

/**
 * What every workspace route file receives: the core, and the request-scoped answers the
 * transport knows (who is signed in, from which address, under which public origin).
 */
export interface WorkspaceKit {
  parlance: Parlance;
  options: WorkspaceOptions;
  /** The signed-in user, or 401. Resolved once per request. */
  signedIn(request: Request): Promise<SignedIn>;
  /** The signed-in user acting in `orgId`: 401 when signed out, 404 when not a member. */
  memberOf(request: Request, orgId: string): Promise<UserPrincipal>;
  /**
   * A live project and the signed-in user acting in its organization: 401 when signed out, 404
   * when the project is missing, deleted, or of an organization the user is not in.
   */
  inProject(request: Request, projectId: string): Promise<{ principal: UserPrincipal; project: Project }>;
  /** The client address (for sign-in throttling), as the serving layer told it. */
  addressOf(request: Request): string;
  /**
   * The server's own origin: PARLANCE_PUBLIC_URL's, else the one the client sent the request to;
   * 400 for a request that names no host.
   */
  originOf(request: Request): string;
  /** `<origin>/<page>#<secret>`: one-time links carry their token in the fragment, never sent to a server. */
  link(request: Request, page: string, secret: string): string;
}

export function createKit(
  parlance: Parlance,
  options: WorkspaceOptions,
  addresses: WeakMap<Request, string>,
): WorkspaceKit {
  const resolved = new WeakMap<Request, Promise<SignedIn | null>>();
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : null;
  const current = (request: Request) => {
    let found = resolved.get(request);
    if (!found) {
      const token = readSessionCookie(request.headers.get("cookie"));
      found = token ? parlance.people.resumeSession(token) : Promise.resolve(null);
      resolved.set(request, found);
    }
    return found;
  };
  const signedIn = async (request: Request) => {
    const found = await current(request);
    if (!found) throw new ParlanceError("unauthenticated", "Sign in first");
    return found;
  };
  const originOf = (request: Request) => {
    const origin = publicOrigin ?? requestOrigin(request);
    if (origin !== null) return origin;
    // HTTP/1.0 without a Host (never a browser): no origin to check an Origin against, or to link to.
    throw invalid(
      "This request names no host (no valid Host header), so the workspace cannot tell its own origin for the Origin check or a link; send Host (HTTP/1.1 requires it), or set PARLANCE_PUBLIC_URL",
    );
  };
  return {
    parlance,
    options,
    signedIn,
    async memberOf(request, orgId) {
      const { user } = await signedIn(request);
      return parlance.people.memberOf(user, orgId);
    },
    async inProject(request, projectId) {
      const { user } = await signedIn(request);
      return parlance.people.inProject(user, projectId);
    },
    addressOf: (request) => addresses.get(request) ?? "unknown",
    originOf,
    link: (request, page, secret) => `${originOf(request)}/${page}#${secret}`,
  };
}

/**
 * Route option for routes that need a signed-in user: 401 before the body is validated (a caller
 * who is not signed in learns nothing about the input), then a query parameter given twice is 400
 * (server/query-once.ts), the JSON body is parsed and U+0000 in any input is 400 (server/no-nul.ts).
 */
export const requireUser = (
  kit: WorkspaceKit,
  options: { integers?: Record<string, IntegerRange>; asText?: boolean } = {},
) => ({
  async transform(context: {
    request: Request;
    body: unknown;
    query: Record<string, unknown>;
    params?: unknown;
  }) {
    await kit.signedIn(context.request);
    // As on /api/v1: one meaning for a query string, whatever reads it in front of Parlance.
    refuseRepeatedQuery(context.request.url);
    context.body = parsedBody(context.body);
    refuseNul(context);
    // The one strict reader of integer query parameters (server/query-integer.ts): 400 naming it.
    if (options.integers) readQueryIntegers(context.query, options.integers, options.asText);
  },
});

/** Route option for public routes with input: as above without the session (400 if not JSON). */
export const parseJson = {
  transform(context: { request: Request; body: unknown; query?: unknown; params?: unknown }) {
    refuseRepeatedQuery(context.request.url);
    context.body = parsedBody(context.body);
    refuseNul(context);
  },
};

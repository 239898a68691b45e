/**
 * Workspace test helper: people signed in to /api/workspace on a harness server.
 *
 * ```ts
 * import { forEachStore, startTestServer } from "../support/harness.ts";
 * import { signedIn, workspaceFetch } from "../support/signed-in.ts";
 *
 * await forEachStore((kind) => {
 *   test("a translator reads", async () => {
 *     const s = await startTestServer(kind);
 *     const { orgId, project } = await s.seed.world();
 *     const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
 *     const res = await ana.fetch(`/api/workspace/projects/${project.id}`);
 *     const put = await ana.fetch("/api/workspace/…", { method: "PUT", json: { … } });
 *     await s.close();
 *   });
 * });
 * ```
 *
 * `signedIn` creates the user and membership directly in the store (no invitation needed), signs
 * in through `POST /api/workspace/session`, and returns a client whose `fetch` carries the session
 * cookie and the server's own `Origin` (so the CSRF check passes; pass `origin: null` or another
 * origin to test refusals). `workspaceFetch` is the same without a session.
 */
import { afterAll, beforeAll } from "bun:test";
import type { Role } from "../../core/index.ts";
import { BASE_URL, type TestServer } from "./harness.ts";
import { type Conformance, createConformance } from "./openapi-conformance.ts";

let conformance: Conformance | undefined;
let checking = false;

/**
 * During the tests of the calling file (call it at the file's top level), every answer
 * `workspaceFetch` gets is checked against the workspace's OpenAPI document (status declared, body
 * of the declared schema, closed objects). Other files are not affected: `bun test` runs every
 * file in one process, so the switch is turned on and off around this file's tests.
 */
export function checkWorkspaceConformance(): void {
  beforeAll(() => {
    checking = true;
  });
  afterAll(() => {
    checking = false;
  });
}

export interface WorkspaceInit extends Omit<RequestInit, "body"> {
  /** Sent as a JSON body with Content-Type application/json. */
  json?: unknown;
  body?: BodyInit | null;
  /** The Origin header; default: the server's own. null sends none. */
  origin?: string | null;
  /** A Cookie header to send (the client's own session cookie by default). */
  cookie?: string | null;
}

/** One request to the test server's app, the way a browser on the workspace page sends it. */
export async function workspaceFetch(
  s: TestServer,
  path: string,
  init: WorkspaceInit = {},
): Promise<Response> {
  const { json, origin = BASE_URL, cookie = null, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (origin !== null && !headers.has("origin")) headers.set("origin", origin);
  if (cookie !== null && !headers.has("cookie")) headers.set("cookie", cookie);
  let body = rest.body;
  if (json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  const request = new Request(`${BASE_URL}${path}`, { ...rest, headers, body });
  const response = await s.app.handle(request);
  if (checking && !path.startsWith("/api/workspace/openapi.json")) {
    const doc = await (await s.app.handle(new Request(`${BASE_URL}/api/workspace/openapi.json`))).json();
    conformance ??= createConformance(doc);
    const problems = await conformance.check(request, response.clone());
    if (problems.length > 0)
      throw new Error(
        `The answer does not match the workspace's OpenAPI document:\n  ${problems.join("\n  ")}`,
      );
  }
  return response;
}

export interface SignedInClient {
  user: { id: string; email: string; name: string };
  orgId: string;
  role: Role;
  password: string;
  /** `parlance_session=<token>`, as the browser sends it. */
  cookie: string;
  /** workspaceFetch with this person's cookie. */
  fetch(path: string, init?: WorkspaceInit): Promise<Response>;
}

let counter = 0;

/** The session cookie a Set-Cookie header sets, as a Cookie header value. */
export function cookieFrom(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  const match = /parlance_session=([^;]*)/.exec(set);
  if (!match?.[1]) throw new Error(`No session cookie in ${res.status} answer: ${set}`);
  return `parlance_session=${match[1]}`;
}

/** Creates a user directly in the store: for tests that sign in themselves. */
export async function createUser(
  s: TestServer,
  opts: { email?: string; name?: string; password?: string } = {},
): Promise<{ id: string; email: string; name: string; password: string }> {
  counter++;
  const email = opts.email ?? `person${counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const name = opts.name ?? `Person ${counter}`;
  const password = opts.password ?? "correct horse battery staple";
  const now = s.parlance.now().toISOString();
  const id = crypto.randomUUID();
  await s.parlance.storage.users.create({
    id,
    email,
    name,
    passwordHash: await (await passwordHasher(s)).hash(password),
    createdAt: now,
    updatedAt: now,
  });
  return { id, email, name, password };
}

/** The server's own hasher is not exposed; the harness's cost is what any hasher verifies. */
async function passwordHasher(_s: TestServer) {
  const { createPasswordHasher } = await import("../../adapters/password-hasher.ts");
  return createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
}

/**
 * A person with `role` (and `languages`) in `orgId` (a new organization when absent), signed in.
 * Also usable for a second organization: `signedIn(s, { orgId: other, role: "owner" })`.
 */
export async function signedIn(
  s: TestServer,
  opts: { orgId?: string; role?: Role; languages?: string[] | null; email?: string; name?: string } = {},
): Promise<SignedInClient> {
  const orgId = opts.orgId ?? (await s.seed.org()).id;
  const role = opts.role ?? "owner";
  const user = await createUser(s, { email: opts.email, name: opts.name });
  await s.parlance.storage.memberships.create({
    orgId,
    userId: user.id,
    role,
    languages: opts.languages ?? null,
    createdAt: s.parlance.now().toISOString(),
  });
  const res = await workspaceFetch(s, "/api/workspace/session", {
    method: "POST",
    json: { email: user.email, password: user.password },
  });
  if (res.status !== 200) throw new Error(`Sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = cookieFrom(res);
  return {
    user: { id: user.id, email: user.email, name: user.name },
    orgId,
    role,
    password: user.password,
    cookie,
    fetch: (path, init = {}) => workspaceFetch(s, path, { cookie, ...init }),
  };
}

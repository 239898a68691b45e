import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createFetchHandler } from "../../server/fetch-handler.ts";
import { startTestServer, type TestServer } from "../support/harness.ts";
import { type RawAnswer, raw } from "../support/raw-http.ts";
import { createUser } from "../support/signed-in.ts";

/**
 * Requests over a socket to the real listener with a short Host (nginx sends `Host: tms` for
 * `proxy_pass http://tms;`) or none (HTTP/1.0): each is answered as the same request with a Host of
 * the usual length. Elysia's general router reads the path from a fixed offset of the URL, so these
 * were answered by a wrong path (server/request-target.ts).
 */
const errorOf = (answer: RawAnswer) => (JSON.parse(answer.body) as { error: string }).error;

/** Serves `s` on a free port for the test; the port. */
function listen(s: TestServer): number {
  return s.app.listen({ port: 0, hostname: "127.0.0.1" }).server?.port as number;
}

describe("a short Host", () => {
  let s: TestServer;
  let port: number;
  beforeEach(async () => {
    s = await startTestServer("memory", { anonRateLimit: 3 });
    port = listen(s);
  });
  afterEach(async () => {
    await s.app.stop();
    await s.close();
  });

  for (const host of ["localhost", "tms", "a", "ab:1"]) {
    test(`Host: ${host}: the workspace signs in, checks the Origin against the Host, and routes`, async () => {
      const user = await createUser(s);
      const get = (path: string, extra: string[] = []) =>
        raw(port, [`GET ${path} HTTP/1.1`, `Host: ${host}`, ...extra, "Connection: close"]);
      const signIn = (origin: string) => {
        const body = JSON.stringify({ email: user.email, password: user.password });
        return raw(
          port,
          [
            "POST /api/workspace/session HTTP/1.1",
            `Host: ${host}`,
            `Origin: ${origin}`,
            "Content-Type: application/json",
            `Content-Length: ${Buffer.byteLength(body)}`,
            "Connection: close",
          ],
          body,
        );
      };

      const anonymous = await get("/api/workspace/me");
      expect(anonymous.status).toBe(401);
      expect(errorOf(anonymous)).toBe("Sign in first");

      // The Origin is checked against the Host the client sent, not anything the router needed.
      const elsewhere = await signIn(host === "localhost" ? "http://tms" : "http://localhost");
      expect(elsewhere.status).toBe(403);
      const signedIn = await signIn(`http://${host}`);
      expect(signedIn.status).toBe(200);
      const cookie = /parlance_session=[^;]*/.exec(signedIn.headers.get("set-cookie") ?? "")?.[0];
      expect(cookie).toBeDefined();

      const me = await get("/api/workspace/me", [`Cookie: ${cookie}`]);
      expect(me.status).toBe(200);
      expect(me.body).toContain(user.email);
      const sessions = await get("/api/workspace/me/sessions/", [`Cookie: ${cookie}`]);
      expect(sessions.status).toBe(200);
    });

    test(`Host: ${host}: /api/v1 paths Bun's router does not match are answered by their own path`, async () => {
      const { key } = await s.seed.world();
      const auth = `Authorization: Bearer ${key.key}`;
      const get = (path: string, method = "GET") =>
        raw(port, [`${method} ${path} HTTP/1.1`, `Host: ${host}`, auth, "Connection: close"]);

      // A trailing slash: the route itself (its validation), never "GET is not allowed; use GET".
      const job = await get("/api/v1/jobs/not-a-job/");
      expect(job.status).toBe(400);
      expect(errorOf(job)).toContain("jobId");
      expect((await get("/api/v1/openapi.json/")).status).toBe(200);

      const wrongMethod = await get("/api/v1/project", "DELETE");
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get("allow")).toBe("GET");
      const missing = await get("/api/v1/no-such-thing");
      expect(missing.status).toBe(404);
      expect(errorOf(missing)).toBe("No route GET /api/v1/no-such-thing");
    });
  }

  test("a Host no URL can hold is refused with 400 where the workspace needs its origin, never 500", async () => {
    for (const host of ["x:99999", "x:abc", "1.2.3.4.5", "localhost:1:2"]) {
      const body = JSON.stringify({ email: "a@example.com", password: "whatever123" });
      const answer = await raw(
        port,
        [
          "POST /api/workspace/session HTTP/1.1",
          `Host: ${host}`,
          `Origin: http://${host}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          "Connection: close",
        ],
        body,
      );
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toContain("no valid Host header");
      const me = await raw(port, ["GET /api/workspace/me HTTP/1.1", `Host: ${host}`, "Connection: close"]);
      expect(me.status).toBe(401);
    }
  });

  test("the anonymous limit keys a short Host's requests on the socket's peer, as any other", async () => {
    const anonymous = (host: string) =>
      raw(port, ["GET /api/v1/no-such-thing HTTP/1.1", `Host: ${host}`, "Connection: close"]);
    // Three allowed an hour from one address (anonRateLimit: 3), whatever Host each names.
    expect((await anonymous("tms")).status).toBe(404);
    expect((await anonymous("tms")).status).toBe(404);
    expect((await anonymous("localhost")).status).toBe(404);
    expect((await anonymous("tms")).status).toBe(429);
    expect((await anonymous("localhost")).status).toBe(429);
  });
});

describe("HTTP/1.0 without a Host", () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      await s.app.stop();
      await s.close();
    }
  });
  const start = async (publicUrl?: string) => {
    const s = await startTestServer("memory", { publicUrl });
    servers.push(s);
    return { s, port: listen(s) };
  };

  test("the workspace needs its origin only to check an Origin or make a link: 400 saying why, unless PARLANCE_PUBLIC_URL names it", async () => {
    const { s, port } = await start();
    const user = await createUser(s);
    const body = JSON.stringify({ email: user.email, password: user.password });
    const signIn = (origin: string) =>
      raw(
        port,
        [
          "POST /api/workspace/session HTTP/1.0",
          `Origin: ${origin}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
        ],
        body,
      );
    // A safe request needs no origin: answered as with a Host.
    const me = await raw(port, ["GET /api/workspace/me HTTP/1.0"]);
    expect(me.status).toBe(401);
    expect(errorOf(me)).toBe("Sign in first");
    const unknown = await signIn("http://localhost");
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown)).toContain("no valid Host header");
    expect(errorOf(unknown)).toContain("PARLANCE_PUBLIC_URL");

    const known = await start("https://tms.example.com");
    const named = await createUser(known.s);
    const namedBody = JSON.stringify({ email: named.email, password: named.password });
    const signedIn = await raw(
      known.port,
      [
        "POST /api/workspace/session HTTP/1.0",
        "Origin: https://tms.example.com",
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(namedBody)}`,
      ],
      namedBody,
    );
    expect(signedIn.status).toBe(200);
  });

  test("/api/v1 is routed by the target's path, its dot segments resolved as with a Host", async () => {
    const { s, port } = await start();
    const { key } = await s.seed.world();
    const auth = `Authorization: Bearer ${key.key}`;
    const withHost = await raw(port, [
      "GET /api/v1/x/../openapi.json HTTP/1.1",
      "Host: localhost",
      "Connection: close",
    ]);
    const without = await raw(port, ["GET /api/v1/x/../openapi.json HTTP/1.0"]);
    expect(withHost.status).toBe(200);
    expect(without.status).toBe(200);
    expect(without.body).toBe(withHost.body);
    const job = await raw(port, ["GET /api/v1/jobs/not-a-job/ HTTP/1.0", auth]);
    expect(job.status).toBe(400);
    expect(errorOf(job)).toContain("jobId");
  });
});

test("the fetch handler routes a short Host's request, and one without a Host, by its path", async () => {
  const s = await startTestServer("memory");
  const handle = createFetchHandler(s.parlance);
  // The documented way to serve it with Bun.serve: the peer's address passed along.
  const listener = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, server) => handle(request, { clientAddress: server.requestIP(request)?.address }),
  });
  try {
    const me = await handle(new Request("http://tms/api/workspace/me"), { clientAddress: "192.0.2.1" });
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: string }).error).toBe("Sign in first");
    expect((await handle(new Request("https://ab/api/v1/openapi.json"))).status).toBe(200);

    const port = listener.port as number;
    const hostless = await raw(port, ["GET /api/workspace/me HTTP/1.0"]);
    expect(hostless.status).toBe(401);
    const spec = await raw(port, ["GET /api/v1/openapi.json HTTP/1.0"]);
    expect(spec.status).toBe(200);
    const short = await raw(port, ["GET /api/workspace/me HTTP/1.1", "Host: tms", "Connection: close"]);
    expect(short.status).toBe(401);
  } finally {
    await listener.stop(true);
    await s.close();
  }
});

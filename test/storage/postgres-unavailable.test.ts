/**
 * Which failures of the real Postgres client count as an outage (503), not a bug (500): errors
 * postgres.js itself raises against a database that refuses connections or never answers, and the
 * code-less messages its reconnects can hand on. Nothing here needs a running database.
 */
import { afterAll, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import postgres from "postgres";
import { isUnavailable } from "../../storage/postgres/unavailable.ts";

/** A TCP server that accepts connections and never says a word: a database host gone silent. */
const silent: Server = createServer((socket: Socket) => {
  socket.on("error", () => {});
});
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
const silentPort = (silent.address() as { port: number }).port;

/** A port nothing listens on: taken, then given back, so a connect is refused. */
const refusedPort = await new Promise<number>((resolve) => {
  const probe = createServer();
  probe.listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

afterAll(() => {
  silent.close();
});

const failureOf = async (port: number, connectTimeout: number) => {
  const sql = postgres(`postgres://nobody@127.0.0.1:${port}/nothing`, {
    connect_timeout: connectTimeout,
    max: 1,
    onnotice: () => {},
  });
  const started = performance.now();
  try {
    await sql`SELECT 1`;
    throw new Error("the query was answered");
  } catch (error) {
    return { error, ms: performance.now() - started };
  } finally {
    await sql.end({ timeout: 0 });
  }
};

test("a refused connection is an outage", async () => {
  const { error } = await failureOf(refusedPort, 2);
  expect(isUnavailable(error)).toBe(true);
});

test("a database that never answers is an outage once the connect timeout passes, not after 30 s", async () => {
  const { error, ms } = await failureOf(silentPort, 1);
  expect(isUnavailable(error)).toBe(true);
  expect((error as { code?: string }).code).toBe("CONNECT_TIMEOUT");
  expect(ms).toBeGreaterThanOrEqual(900);
  expect(ms).toBeLessThan(20_000);
});

test("a connect failure handed on without a code is recognised by its text", () => {
  expect(isUnavailable(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(true);
  expect(isUnavailable("Error: write CONNECTION_CLOSED 127.0.0.1:5432")).toBe(true);
});

test("errors of a reachable database are not outages", () => {
  // A constraint violation, a syntax error, a missing table: bugs or bad input, never a 503.
  for (const code of ["23505", "42601", "42P01", "22P02"])
    expect(isUnavailable(Object.assign(new Error("query failed"), { code }))).toBe(false);
  // Class 08 and the shutdown states are.
  for (const code of ["08006", "08001", "57P01", "57P03", "53300"])
    expect(isUnavailable(Object.assign(new Error("gone"), { code }))).toBe(true);
  expect(isUnavailable(new Error("value too long for type character varying(64)"))).toBe(false);
  expect(isUnavailable(null)).toBe(false);
  expect(isUnavailable(undefined)).toBe(false);
});

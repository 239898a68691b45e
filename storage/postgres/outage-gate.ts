import type { Sql } from "postgres";
import { answersNow, storageUnavailable } from "../unavailable.ts";

/**
 * Answers "unavailable" at once while a client cannot connect to its database, instead of letting
 * calls queue inside postgres.js. There, a query made while no connection is open waits for a
 * connection's reconnect delay before it even tries to connect; the delay grows with every failed
 * connect of the client (3^n/100 s up to 20 s, one counter shared with its LISTEN connection) and
 * falls back only when a connect succeeds, and queries queued behind wait further rounds. During an
 * outage a busy instance (or its change feed's pings) drove the delay to its ceiling within two
 * seconds, and requests hung instead of answering 503 (docs/decisions.md).
 *
 * After a failed connect the gate is down: calls reject with "unavailable" without touching the
 * client, while one probe (`SELECT 1`) at a time asks whether the database is back, the first at
 * once (a blip costs a round trip) and then every PROBE_MS. The first probe that answers lifts it.
 */
export interface OutageGate {
  /** Whether calls are refused now. */
  readonly down: boolean;
  /** Hears a call's failure; a failure to connect puts the gate down. */
  failed(error: unknown): void;
}

export const PROBE_MS = 250;

/** Failures to open a connection (the runtime's socket codes, postgres.js's and Postgres's own). */
const CONNECT_FAILURES = [
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "57P03", // the database system is starting up / shutting down
  "53300", // too many connections
];

/**
 * A connection lost mid-query (reset, closed, administrator shutdown) does not put the gate down by
 * itself: the database may be fine, and if it is not the reconnect fails and says so.
 */
export function isConnectFailure(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return CONNECT_FAILURES.includes(code);
  // The client's reconnects can hand a failed connect on as a bare message, without a code.
  const text = error === null || error === undefined ? "" : String(error);
  return CONNECT_FAILURES.some((c) => text.includes(c));
}

/** One gate per client: the storage and the rate limiter on one client see the same outage. */
const gates = new WeakMap<Sql, OutageGate>();

export function outageGateOf(sql: Sql): OutageGate {
  let gate = gates.get(sql);
  if (!gate) {
    gate = createOutageGate(() => sql`SELECT 1`.then(() => {}));
    gates.set(sql, gate);
  }
  return gate;
}

export function createOutageGate(probe: () => Promise<void>): OutageGate {
  let down = false;
  let probing = false;

  const tryProbe = () => {
    if (probing) return;
    probing = true;
    probe().then(
      () => {
        probing = false;
        down = false;
      },
      () => {
        probing = false;
        if (!down) return;
        const again = setTimeout(tryProbe, PROBE_MS);
        (again as { unref?: () => void }).unref?.();
      },
    );
  };

  return {
    get down() {
      return down;
    },
    failed(error) {
      if (down || !isConnectFailure(error)) return;
      down = true;
      tryProbe();
    },
  };
}

/**
 * The same object, each method refused with "unavailable" while the gate is down (except `close`,
 * which must always run) and its failures reported to the gate. A method that answers at once
 * (`…Now`) answers `undefined` while the gate is down, so its caller asks the method that refuses.
 */
export function behindGate<T extends object>(target: T, gate: OutageGate): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== "function" || name === "close") {
      wrapped[name] = value;
      continue;
    }
    if (answersNow(name)) {
      const now = value as (...a: unknown[]) => unknown;
      wrapped[name] = (...args: unknown[]) => (gate.down ? undefined : now.apply(target, args));
      continue;
    }
    wrapped[name] = (...args: unknown[]) => {
      if (gate.down) return Promise.reject(storageUnavailable("the database could not be reached"));
      const result = (value as (...a: unknown[]) => unknown).apply(target, args);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        gate.failed(error);
        throw error;
      });
    };
  }
  return wrapped as T;
}

/**
 * The Postgres adapter's outage gate (storage/postgres/outage-gate.ts) on its own, with a probe the
 * test controls: which failures put it down, that calls are then refused without reaching the
 * database, and that the first probe that answers lifts it. The same on a real cluster:
 * test/storage/postgres-outage.test.ts.
 */
import { expect, test } from "bun:test";
import { isParlanceError } from "../../core/errors.ts";
import {
  behindGate,
  createOutageGate,
  isConnectFailure,
  PROBE_MS,
} from "../../storage/postgres/outage-gate.ts";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

test("failures to connect put the gate down; a connection lost mid-query or a query error does not", () => {
  expect(isConnectFailure(refused)).toBe(true);
  expect(isConnectFailure(Object.assign(new Error("timeout"), { code: "CONNECT_TIMEOUT" }))).toBe(true);
  expect(isConnectFailure(Object.assign(new Error("starting up"), { code: "57P03" }))).toBe(true);
  expect(isConnectFailure(new Error("Error: connect ECONNREFUSED 127.0.0.1:5432"))).toBe(true);
  expect(isConnectFailure(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(false);
  expect(isConnectFailure(Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }))).toBe(false);
  expect(isConnectFailure(Object.assign(new Error("terminating"), { code: "57P01" }))).toBe(false);
  expect(isConnectFailure(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  expect(isConnectFailure(null)).toBe(false);
});

test("while down, calls are refused at once without reaching the store; the probe that answers lifts the gate", async () => {
  let databaseUp = false;
  let probes = 0;
  const gate = createOutageGate(async () => {
    probes++;
    if (!databaseUp) throw refused;
  });
  let reached = 0;
  let closed = 0;
  const store = behindGate(
    {
      async read() {
        reached++;
        if (!databaseUp) throw refused;
        return "row";
      },
      async close() {
        closed++;
      },
    },
    gate,
  );

  expect(gate.down).toBe(false);
  await expect(store.read()).rejects.toBe(refused);
  expect(gate.down).toBe(true);
  expect(reached).toBe(1);
  expect(probes).toBe(1);

  for (let i = 0; i < 100; i++) {
    const error = await store.read().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isParlanceError(error) && error.code).toBe("unavailable");
  }
  expect(reached).toBe(1);
  await store.close();
  expect(closed).toBe(1);

  // Probes go on, one at a time, while the database stays away.
  await Bun.sleep(PROBE_MS * 2 + 100);
  expect(probes).toBeGreaterThanOrEqual(2);
  expect(probes).toBeLessThanOrEqual(4);
  expect(gate.down).toBe(true);

  databaseUp = true;
  const deadline = performance.now() + PROBE_MS * 4;
  while (gate.down && performance.now() < deadline) await Bun.sleep(10);
  expect(gate.down).toBe(false);
  expect(await store.read()).toBe("row");
  expect(reached).toBe(2);
  // Up again, the gate probes no more.
  const after = probes;
  await Bun.sleep(PROBE_MS * 2);
  expect(probes).toBe(after);
});

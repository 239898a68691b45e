/** server/traffic.ts: light means fewer than n requests over a whole window of looks on time. */
import { expect, test } from "bun:test";
import { ARRIVALS_KEPT, createTraffic } from "../../server/traffic.ts";

test("light only over a whole window with fewer requests than the bound", () => {
  let now = 1_000;
  const traffic = createTraffic(() => now);
  const look = (after: number, requests = 0) => {
    now += after;
    for (let i = 0; i < requests; i++) traffic.note();
    return traffic.lighterThan(3, 100, 50);
  };
  // No window yet: the first look opens it.
  expect(look(0)).toBe(false);
  expect(look(50, 5)).toBe(false);
  // 100 ms after the first look, 5 requests: too many.
  expect(look(50)).toBe(false);
  // From the look at 1,050 (5 requests before it): none since.
  expect(look(50)).toBe(true);
  expect(look(25, 2)).toBe(true);
  expect(look(25, 1)).toBe(false);
  expect(look(100)).toBe(true);
});

test("a window in which the event loop was held is not light", () => {
  let now = 1_000;
  const traffic = createTraffic(() => now);
  const look = (after: number) => {
    now += after;
    return traffic.lighterThan(3, 100, 25);
  };
  for (let i = 0; i < 5; i++) look(25);
  expect(look(25)).toBe(true);
  // Held for 150 ms: no request could be taken in, so none counted proves nothing.
  expect(look(150)).toBe(false);
  expect(look(25)).toBe(false);
  for (let i = 0; i < 3; i++) look(25);
  expect(look(25)).toBe(true);
});

test("fewer than n arrived over the last ms: told in one call from the latest arrivals", () => {
  let now = 1_000;
  const traffic = createTraffic(() => now);
  expect(traffic.arrivedFewerThan(3, 100)).toBe(true);
  for (let i = 0; i < 3; i++) traffic.note();
  expect(traffic.arrivedFewerThan(3, 100)).toBe(false);
  expect(traffic.arrivedFewerThan(4, 100)).toBe(true);
  now += 101;
  expect(traffic.arrivedFewerThan(3, 100)).toBe(true);
  traffic.note();
  traffic.note();
  expect(traffic.arrivedFewerThan(3, 100)).toBe(true);
  traffic.note();
  expect(traffic.arrivedFewerThan(3, 100)).toBe(false);
  // Past the arrivals kept, the latest ones still tell.
  for (let i = 0; i < ARRIVALS_KEPT * 3; i++) {
    now += 1;
    traffic.note();
  }
  expect(traffic.arrivedFewerThan(120, 200)).toBe(false);
  expect(traffic.arrivedFewerThan(120, 100)).toBe(true);
});

/** server/traffic.ts: light means fewer than n requests arrived over a whole window between looks. */
import { expect, test } from "bun:test";
import { createTraffic } from "../../server/traffic.ts";

test("light only over a whole window with fewer requests than the bound", () => {
  let now = 1_000;
  const traffic = createTraffic(() => now);
  const look = (after: number, requests = 0) => {
    now += after;
    for (let i = 0; i < requests; i++) traffic.note();
    return traffic.lighterThan(3, 100);
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

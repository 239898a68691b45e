/** server/traffic.ts: quiet means no request arrived across a whole window between two looks. */
import { expect, test } from "bun:test";
import { createTraffic } from "../../server/traffic.ts";

test("quiet only after a whole window without a request", () => {
  let now = 1_000;
  const traffic = createTraffic(() => now);
  // The first look opens the window.
  expect(traffic.quietSince(50)).toBe(false);
  now += 30;
  expect(traffic.quietSince(50)).toBe(false);
  now += 20;
  expect(traffic.quietSince(50)).toBe(true);
  traffic.note();
  now += 60;
  // A request since the last look: not quiet, and the window starts again here.
  expect(traffic.quietSince(50)).toBe(false);
  now += 49;
  expect(traffic.quietSince(50)).toBe(false);
  now += 1;
  expect(traffic.quietSince(50)).toBe(true);
});

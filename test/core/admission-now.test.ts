/**
 * `admitNow` on the small GET's path (issue 13): one clock reading per request, and the usual
 * header (`Bearer ` and an API key, read without the bearer pattern) admitted exactly as every other
 * spelling the pattern accepts; what it refuses is refused as before.
 */
import { expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createMemoryRateLimiter } from "../../adapters/memory-rate-limiter.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

async function world() {
  const fixed = createFixedClock();
  let readings = 0;
  const clock = {
    now: () => {
      readings++;
      return fixed.now();
    },
  };
  const storage = createMemoryStorage();
  // Loaded now: the default limiter loads on first use, and until then nothing is decided at once.
  const rateLimiter = await createMemoryRateLimiter(storage.rateWindows, clock);
  const parlance = createParlance({ storage, clock, rateLimiter });
  const org = await parlance.admin.createOrg("Acme");
  const created = await parlance.admin.createKey(org.id, { name: "ci", scopes: ["translations:read"] });
  const admitNow = (authorization: string | null) =>
    parlance.admitNow({ authorization, address: () => "203.0.113.1" });
  return { key: created.key, id: created.id, admitNow, readings: () => readings };
}

test("a request admitted at once reads the clock once", async () => {
  const w = await world();
  const before = w.readings();
  expect(w.admitNow(`Bearer ${w.key}`)?.principal?.key.id).toBe(w.id);
  expect(w.readings() - before).toBe(1);
});

test("every spelling of the bearer header admits the same key", async () => {
  const w = await world();
  for (const header of [
    `Bearer ${w.key}`,
    `bearer ${w.key}`,
    `BEARER ${w.key}`,
    `Bearer  ${w.key}`,
    `Bearer\t${w.key}`,
    `Bearer ${w.key} `,
    `Bearer ${w.key}\t`,
  ])
    expect(w.admitNow(header)?.principal?.key.id).toBe(w.id);
});

test("headers that are not a bearer key are refused as before", async () => {
  const w = await world();
  const refused = (header: string | null) => w.admitNow(header)?.authError?.message;
  expect(refused(null)).toStartWith("Missing Authorization header");
  expect(refused(`Basic ${w.key}`)).toStartWith("Malformed Authorization header");
  expect(refused(`Bearer${w.key}`)).toStartWith("Malformed Authorization header");
  expect(refused(`Bearer ${w.key} x`)).toStartWith("Malformed Authorization header");
  // The last character changed to one it is not (a key ending in "0" would stay itself with "0").
  const other = w.key.endsWith("0") ? "1" : "0";
  expect(refused(`Bearer ${w.key.slice(0, -1)}${other}`)).toStartWith("Invalid API key");
  // Not of the key format (an access token, a truncated key): left to the asynchronous `admit`.
  expect(w.admitNow(`Bearer ${w.key.slice(0, -1)}`)).toBeUndefined();
  expect(w.admitNow(`Bearer ${w.key.toUpperCase()}`)).toBeUndefined();
});

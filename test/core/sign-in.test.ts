import { expect, test } from "bun:test";
import { runtimeHasher } from "../../adapters/hasher.ts";
import { createMemoryRateLimiter } from "../../adapters/memory-rate-limiter.ts";
import { createPQueueJobQueue } from "../../adapters/p-queue-job-queue.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import { createParlance, type PasswordHasher } from "../../core/index.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

/** A hasher that records what it is asked: the work a refusal costs must not depend on the email. */
function countingHasher() {
  const calls: string[] = [];
  const hasher: PasswordHasher = {
    async hash(password) {
      calls.push("hash");
      return `hashed:${password}`;
    },
    async verify(password, hash) {
      calls.push("verify");
      return hash === `hashed:${password}`;
    },
  };
  return { hasher, calls };
}

async function setUp() {
  const storage = createMemoryStorage();
  const clock = createFixedClock("2026-06-01T12:00:00.000Z");
  const { hasher, calls } = countingHasher();
  const parlance = createParlance({
    storage,
    queue: createPQueueJobQueue(),
    clock,
    rateLimiter: await createMemoryRateLimiter(storage.rateWindows, clock),
    hasher: runtimeHasher,
    passwords: hasher,
  });
  const now = clock.now().toISOString();
  await storage.users.create({
    id: crypto.randomUUID(),
    email: "ana@example.com",
    name: "Ana",
    passwordHash: await hasher.hash("the right passphrase"),
    createdAt: now,
    updatedAt: now,
  });
  calls.length = 0;
  return { parlance, calls };
}

const attempt = (parlance: Awaited<ReturnType<typeof setUp>>["parlance"], email: string, password: string) =>
  parlance.people
    .signIn({ email, password, address: "192.0.2.1", userAgent: null })
    .then(() => "signed in")
    .catch((e: Error) => e.message);

test("an unknown email costs one password verification, like a wrong password, and gets the same answer", async () => {
  const { parlance, calls } = await setUp();
  await attempt(parlance, "warm-up@example.com", "x"); // the dummy hash is made once
  calls.length = 0;
  const wrong = await attempt(parlance, "ana@example.com", "a wrong passphrase");
  const wrongCalls = [...calls];
  calls.length = 0;
  const unknown = await attempt(parlance, "nobody@example.com", "a wrong passphrase");
  expect(unknown).toBe(wrong);
  expect(calls).toEqual(wrongCalls);
  expect(calls).toEqual(["verify"]);
  expect(await attempt(parlance, "ANA@example.com", "the right passphrase")).toBe("signed in");
});

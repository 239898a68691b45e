import { expect, test } from "bun:test";
import { bunHasher, createPasswordHasher, wasmHasher } from "../../adapters/password-hasher.ts";

const cheap = { memoryCost: 1024, timeCost: 1 };

test("Bun's argon2id and hash-wasm's read each other's hashes, so a store moves between runtimes", async () => {
  const onBun = bunHasher(Bun, cheap);
  const elsewhere = wasmHasher(cheap);
  const fromBun = await onBun.hash("a long enough passphrase");
  const fromWasm = await elsewhere.hash("a long enough passphrase");
  for (const hash of [fromBun, fromWasm]) {
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await onBun.verify("a long enough passphrase", hash)).toBe(true);
    expect(await elsewhere.verify("a long enough passphrase", hash)).toBe(true);
    expect(await onBun.verify("another passphrase", hash)).toBe(false);
    expect(await elsewhere.verify("another passphrase", hash)).toBe(false);
  }
  expect(fromBun).not.toBe(await onBun.hash("a long enough passphrase"));
});

test("a malformed hash verifies as false, never as a throw", async () => {
  for (const hasher of [bunHasher(Bun, cheap), wasmHasher(cheap)]) {
    expect(await hasher.verify("x", "not a hash")).toBe(false);
    expect(await hasher.verify("x", "")).toBe(false);
  }
});

test("the default cost is OWASP's first argon2id choice: 19 MiB, 2 passes, 1 lane", async () => {
  expect(await createPasswordHasher().hash("a long enough passphrase")).toMatch(
    /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
  );
});

import type { PasswordHasher } from "../core/ports.ts";

/** argon2id cost. The defaults follow OWASP's first choice (19 MiB, 2 passes, 1 lane). */
export interface Argon2Cost {
  /** KiB of memory per hash. */
  memoryCost?: number;
  /** Passes over the memory. */
  timeCost?: number;
}

/** The part of Bun's global this adapter uses, declared here so the file also loads under Deno. */
export interface BunPassword {
  password: {
    hash(
      password: string,
      options: { algorithm: "argon2id"; memoryCost: number; timeCost: number },
    ): Promise<string>;
    verify(password: string, hash: string): Promise<boolean>;
  };
}
const bun = (globalThis as { Bun?: BunPassword }).Bun;

/**
 * argon2id in PHC format: Bun's built-in on Bun, hash-wasm (WebAssembly, no native build) under
 * Deno and Node. Both write and read the same format, so a store moves between runtimes.
 */
export function createPasswordHasher(cost: Argon2Cost = {}): PasswordHasher {
  return bun ? bunHasher(bun, cost) : wasmHasher(cost);
}

const memoryOf = (cost: Argon2Cost) => cost.memoryCost ?? 19_456;
const passesOf = (cost: Argon2Cost) => cost.timeCost ?? 2;

/** Bun's built-in argon2id. */
export function bunHasher(runtime: BunPassword, cost: Argon2Cost = {}): PasswordHasher {
  const [memoryCost, timeCost] = [memoryOf(cost), passesOf(cost)];
  return {
    hash: (password) => runtime.password.hash(password, { algorithm: "argon2id", memoryCost, timeCost }),
    async verify(password, hash) {
      try {
        return await runtime.password.verify(password, hash);
      } catch {
        return false;
      }
    },
  };
}

/** hash-wasm's argon2id (WebAssembly): for Deno and Node, and to prove both read each other's hashes. */
export function wasmHasher(cost: Argon2Cost = {}): PasswordHasher {
  const [memoryCost, timeCost] = [memoryOf(cost), passesOf(cost)];
  return {
    async hash(password) {
      const { argon2id } = await import("hash-wasm");
      const salt = new Uint8Array(16);
      crypto.getRandomValues(salt);
      return argon2id({
        password,
        salt,
        parallelism: 1,
        iterations: timeCost,
        memorySize: memoryCost,
        hashLength: 32,
        outputType: "encoded",
      });
    },
    async verify(password, hash) {
      const { argon2Verify } = await import("hash-wasm");
      try {
        return await argon2Verify({ password, hash });
      } catch {
        return false;
      }
    },
  };
}

/**
 * `parlance-tms/hasher`: SHA-256 and ETag fingerprints from the runtime (Bun's own, or node:crypto),
 * and argon2id for people's passwords (Bun's own, or hash-wasm).
 */
export { runtimeHasher } from "../adapters/hasher.ts";
export { type Argon2Cost, createPasswordHasher } from "../adapters/password-hasher.ts";

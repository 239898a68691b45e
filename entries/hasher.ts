/** `parlance-tms/hasher`: SHA-256 and ETag fingerprints from the runtime (Bun's own, or node:crypto). */
export { runtimeHasher } from "../adapters/hasher.ts";

import { createHash } from "node:crypto";
import type { Hasher } from "../core/ports.ts";

/** The part of Bun's global this adapter uses, declared here so the file also loads under Deno. */
interface BunHashing {
  SHA256: { hash(input: string, encoding: "hex"): string };
  hash(input: string): number | bigint;
}
const bun = (globalThis as { Bun?: BunHashing }).Bun;

/**
 * SHA-256 for keys and tokens, and a fast fingerprint for ETags: Bun's native functions when
 * running on Bun (about 4× faster than node:crypto on both), else `node:crypto`, which Deno and
 * Node also provide. Both are synchronous; web crypto's digest is async only.
 */
export const runtimeHasher: Hasher = bun
  ? {
      sha256Hex: (text) => bun.SHA256.hash(text, "hex"),
      fingerprint: (text) => bun.hash(text).toString(16),
    }
  : {
      sha256Hex: (text) => createHash("sha256").update(text).digest("hex"),
      fingerprint: (text) => createHash("sha1").update(text).digest("hex"),
    };

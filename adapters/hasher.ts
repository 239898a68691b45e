import { createHash } from "node:crypto";
import type { Hasher } from "../core/ports.ts";

/**
 * SHA-256 through `node:crypto`, which Bun, Deno and Node all provide natively and synchronously
 * (web crypto's digest is async only).
 */
export const nodeHasher: Hasher = {
  sha256Hex: (text) => createHash("sha256").update(text).digest("hex"),
};

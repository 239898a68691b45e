import { originalOf } from "./request-target.ts";

/** The minimum of Bun's and Elysia's server object that tells a peer's address. */
export interface PeerInfo {
  requestIP?(request: Request): { address: string } | null;
}

/**
 * How many reverse proxies of the operator's stand in front (PARLANCE_TRUST_PROXY=<hops>); `true`
 * means one, `false`, `undefined` and 0 none.
 */
export type TrustProxy = boolean | number;

export const proxyHops = (trust: TrustProxy | undefined): number =>
  trust === true ? 1 : typeof trust === "number" && Number.isInteger(trust) && trust > 0 ? trust : 0;

/**
 * The client's address for the anonymous rate limiter. Each trusted proxy appends the address it
 * received the request from to X-Forwarded-For, so only the rightmost `hops` entries are facts:
 * the client is the entry `hops` places from the right of [X-Forwarded-For…, socket peer] (with one
 * proxy, the rightmost X-Forwarded-For entry; what the client wrote itself lies further left and
 * is never read). With fewer entries than hops, the leftmost. Without trusted proxies, the peer.
 */
export function clientAddress(
  request: Request,
  server: PeerInfo | null | undefined,
  trustProxy: TrustProxy | undefined,
): string {
  // The listener knows the peer of the request it gave, not of a stand-in made for the router.
  const peer = server?.requestIP?.(originalOf(request))?.address ?? "unknown";
  const hops = proxyHops(trustProxy);
  if (hops === 0) return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - hops)] ?? peer;
}

/** The minimum of Bun's and Elysia's server object that tells a peer's address. */
export interface PeerInfo {
  requestIP?(request: Request): { address: string } | null;
}

/**
 * The client's address for the anonymous rate limiter. Behind a trusted reverse proxy
 * (PARLANCE_TRUST_PROXY=1) the first X-Forwarded-For entry; otherwise the socket peer.
 */
export function clientAddress(
  request: Request,
  server: PeerInfo | null | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP?.(request)?.address ?? "unknown";
}

import { ParlanceError } from "../../core/index.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request must come from the server's own pages: an `Origin` equal to the
 * server's origin, or, without `Origin`, `Sec-Fetch-Site: same-origin`. SameSite=Lax already keeps
 * the cookie off most cross-site requests; this also covers same-site subdomains and old browsers.
 */
export function checkCsrf(
  request: Request,
  ownOrigin: (request: Request) => string,
  /** PARLANCE_PUBLIC_URL is set: the origin is the operator's, and the advice to set it is moot. */
  publicUrlSet = false,
): void {
  if (SAFE.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    // Asked only here: a safe request needs no origin, even one that names no host (HTTP/1.0).
    const own = ownOrigin(request);
    if (origin === own) return;
    throw new ParlanceError(
      "forbidden",
      publicUrlSet
        ? `Cross-origin request refused: Origin ${origin} is not this server's origin, ${own} (PARLANCE_PUBLIC_URL)`
        : `Cross-origin request refused: Origin ${origin} is not this server's origin, ${own}. Behind a reverse proxy, set PARLANCE_PUBLIC_URL to the address people open`,
    );
  }
  if (request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new ParlanceError(
    "forbidden",
    "Cross-origin request refused (no Origin or Sec-Fetch-Site: same-origin)",
  );
}

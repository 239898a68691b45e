export const SESSION_COOKIE = "parlance_session";

/** The session token in a Cookie header, or null. */
export function readSessionCookie(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** HttpOnly: scripts never see it; SameSite=Lax: other sites' forms and fetches do not carry it. */
function attributes(secure: boolean): string {
  return `HttpOnly; SameSite=Lax; Path=/${secure ? "; Secure" : ""}`;
}

/** Kept by the browser for `maxAgeSeconds`; the server decides on each use whether it is still valid. */
export const sessionCookie = (token: string, maxAgeSeconds: number, secure: boolean): string =>
  `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(secure)}`;

export const clearedSessionCookie = (secure: boolean): string =>
  `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;

/** Secure when the public URL is https. */
export const secureCookies = (publicUrl: string | undefined): boolean =>
  publicUrl?.toLowerCase().startsWith("https:") === true;

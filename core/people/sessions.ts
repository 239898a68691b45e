import type { Deps } from "../context.ts";
import { notFound } from "../errors.ts";
import { isUuid, newId, timingSafeEqual } from "../ids.ts";
import { after, DAY_MS, newSecret, SECRET_PATTERN } from "./secrets.ts";
import type { Session, User } from "./types.ts";

export const SESSION_IDLE_MS = 14 * DAY_MS;
export const SESSION_ABSOLUTE_MS = 30 * DAY_MS;
/** A session's last use is written at most this often: most requests read and write nothing. */
const TOUCH_EVERY_MS = 60_000;

/** A session as its owner sees it in the list: never the token or its hash. */
export interface SessionView {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  current: boolean;
}

/** The earlier of two ISO dates (they order as text). */
function earlier(a: string, b: string): string {
  if (b < a) return b;
  return a;
}

export const expiresAt = (s: Session): string => earlier(s.idleExpiresAt, s.absoluteExpiresAt);

export function sessionView(s: Session, currentId: string | null): SessionView {
  return {
    id: s.id,
    createdAt: s.createdAt,
    lastUsedAt: s.lastUsedAt,
    expiresAt: expiresAt(s),
    userAgent: s.userAgent,
    current: s.id === currentId,
  };
}

/** Starts a session for `userId`; the token (for the cookie) and the session. */
export async function startSession(
  deps: Deps,
  userId: string,
  userAgent: string | null,
): Promise<{ token: string; session: Session }> {
  const token = newSecret();
  const now = deps.clock.now();
  const absoluteExpiresAt = after(now, SESSION_ABSOLUTE_MS);
  const session: Session = {
    id: newId(),
    tokenHash: deps.hasher.sha256Hex(token),
    userId,
    createdAt: now.toISOString(),
    lastUsedAt: now.toISOString(),
    idleExpiresAt: after(now, SESSION_IDLE_MS),
    absoluteExpiresAt,
    userAgent: userAgent ? userAgent.slice(0, 300) : null,
  };
  await deps.storage.sessions.create(session);
  return { token, session };
}

/**
 * The session and user a cookie's token names, or null when it names none, or an expired one
 * (which is deleted). Each use slides the idle expiry, never past the absolute one.
 */
export async function resumeSession(
  deps: Deps,
  token: string,
): Promise<{ session: Session; user: User } | null> {
  if (!SECRET_PATTERN.test(token)) return null;
  const hash = deps.hasher.sha256Hex(token);
  const session = await deps.storage.sessions.findByHash(hash);
  if (!session || !timingSafeEqual(session.tokenHash, hash)) return null;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  if (session.idleExpiresAt <= nowIso || session.absoluteExpiresAt <= nowIso) {
    await deps.storage.sessions.delete(session.id, session.userId);
    return null;
  }
  const user = await deps.storage.users.get(session.userId);
  if (!user) return null;
  if (now.getTime() - Date.parse(session.lastUsedAt) >= TOUCH_EVERY_MS) {
    session.lastUsedAt = nowIso;
    session.idleExpiresAt = earlier(after(now, SESSION_IDLE_MS), session.absoluteExpiresAt);
    await deps.storage.sessions.touch(session.id, session.lastUsedAt, session.idleExpiresAt);
  }
  return { session, user };
}

export async function listSessions(
  deps: Deps,
  userId: string,
  currentId: string | null,
): Promise<SessionView[]> {
  const sessions = await deps.storage.sessions.listByUser(userId, deps.clock.now().toISOString());
  return sessions.map((s) => sessionView(s, currentId));
}

/** Ends one of the user's own sessions; 404 when it is not theirs (or gone). */
export async function revokeSession(deps: Deps, userId: string, sessionId: string): Promise<void> {
  // An id of another shape names no session: it never reaches the store.
  if (!isUuid(sessionId) || !(await deps.storage.sessions.delete(sessionId, userId)))
    throw notFound("Session not found");
}

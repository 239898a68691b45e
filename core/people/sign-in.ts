import type { Deps } from "../context.ts";
import { ParlanceError } from "../errors.ts";
import { MAX_PASSWORD_LENGTH } from "./passwords.ts";
import { startSession } from "./sessions.ts";
import type { Session, User } from "./types.ts";

/** Sign-in attempts allowed per window: per account (email), and per client address. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 } as const;

/** 429 with the seconds after which a new attempt is counted again (Retry-After). */
export class SignInThrottled extends ParlanceError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many sign-in attempts; wait before trying again",
  ) {
    super("rate_limited", message);
  }
}

/** One message for an unknown email and a wrong password: the answer tells nothing apart. */
const refused = () => new ParlanceError("unauthenticated", "Email or password is wrong");

export interface SignInRequest {
  email: string;
  password: string;
  address: string;
  userAgent: string | null;
}

export function createSignIn(deps: Deps) {
  // Verified against when the email is unknown, so both failures cost one argon2 verification.
  let dummy: Promise<string> | null = null;
  const dummyHash = () => {
    dummy ??= deps.passwords.hash("parlance dummy password, never a real one");
    return dummy;
  };

  const throttle = async (bucket: string, limit: number) => {
    const nowMs = deps.clock.now().getTime();
    const decision = await deps.rateLimiter.consume(bucket, limit, SIGN_IN_LIMITS.windowMs, nowMs);
    if (!decision.allowed)
      throw new SignInThrottled(Math.max(1, Math.ceil((decision.resetAt - nowMs) / 1000)));
  };

  /** Every attempt counts, successful or not; a refused one (429) tells nothing about the password. */
  return async function signIn(req: SignInRequest): Promise<{ token: string; session: Session; user: User }> {
    const email = req.email.trim().toLowerCase();
    const dummyReady = dummyHash();
    await throttle(`signin:address:${req.address}`, SIGN_IN_LIMITS.perAddress);
    await throttle(`signin:account:${email}`, SIGN_IN_LIMITS.perAccount);
    const password = req.password.slice(0, MAX_PASSWORD_LENGTH + 1);
    const user = email.length > 0 && email.length <= 254 ? await deps.storage.users.findByEmail(email) : null;
    const ok = await deps.passwords.verify(password, user ? user.passwordHash : await dummyReady);
    if (!user || !ok) throw refused();
    const { token, session } = await startSession(deps, user.id, req.userAgent);
    return { token, session, user };
  };
}

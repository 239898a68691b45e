import { type Action, type Admission, authorize, type KeyPrincipal, ParlanceError } from "../core/index.ts";

/**
 * What the global request hook learned about a request (who, rate-limit state), for the routes
 * that run after routing and validation. Kept on the Request object itself under a private symbol,
 * so it dies with it: a WeakMap did the same at about 2 µs a request (issue 13, small GET).
 */
const ADMISSION = Symbol("parlance admission");
type Admitted = Request & { [ADMISSION]?: Admission };

export const rememberAdmission = (request: Request, admission: Admission) => {
  (request as Admitted)[ADMISSION] = admission;
};
export const admissionOf = (request: Request): Admission | undefined => (request as Admitted)[ADMISSION];

/** The 401 of a request the admission found no caller for. */
export const unauthenticatedError = (admission: Admission | undefined): ParlanceError =>
  admission?.authError ?? new ParlanceError("unauthenticated", "Missing Authorization header");

/** The caller, or the 401 the admission recorded; 403 when it may not perform `action`. */
export function principalOf(request: Request, action?: Action): KeyPrincipal {
  const admission = admissionOf(request);
  if (!admission?.principal) throw unauthenticatedError(admission);
  if (action) authorize(admission.principal, action);
  return admission.principal;
}

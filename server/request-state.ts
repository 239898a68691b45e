import { type Action, type Admission, authorize, type KeyPrincipal, ParlanceError } from "../core/index.ts";

/**
 * What the global request hook learned about a request (who, rate-limit state), for the routes
 * that run after routing and validation. Keyed by the Request object itself, so it dies with it.
 */
const admissions = new WeakMap<Request, Admission>();

export const rememberAdmission = (request: Request, admission: Admission) =>
  admissions.set(request, admission);
export const admissionOf = (request: Request): Admission | undefined => admissions.get(request);

/** The caller, or the 401 the admission recorded; 403 when it may not perform `action`. */
export function principalOf(request: Request, action?: Action): KeyPrincipal {
  const admission = admissions.get(request);
  if (!admission?.principal) {
    throw admission?.authError ?? new ParlanceError("unauthenticated", "Missing Authorization header");
  }
  if (action) authorize(admission.principal, action);
  return admission.principal;
}

import type { Principal } from "./principal.ts";

/** A use case that takes the acting principal first, as createParlance returns them. */
// biome-ignore lint/suspicious/noExplicitAny: any argument list, checked again by Bound<U>'s inference
type UseCase = (principal: Principal, ...args: any[]) => unknown;

/** The same use cases with the principal already given. */
export type Bound<U extends Record<string, UseCase>> = {
  [K in keyof U]: U[K] extends (principal: Principal, ...args: infer A) => infer R
    ? (...args: A) => R
    : never;
};

/**
 * Binds every use case of `useCases` to one principal. This is how the host application acts on its
 * own authority (`parlance.as(orgId)`): it never holds an API key, so there is none to leak, rotate
 * or rate-limit. Any use case later added to the principal-first group is bound as well.
 */
export function bindPrincipal<U extends Record<string, UseCase>>(
  useCases: U,
  principal: Principal,
): Bound<U> {
  const bound: Record<string, unknown> = {};
  for (const [name, useCase] of Object.entries(useCases)) {
    bound[name] = (...args: unknown[]) => useCase(principal, ...args);
  }
  return bound as Bound<U>;
}

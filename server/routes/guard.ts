import type { Scope } from "../../core/index.ts";
import { principalOf } from "../request-state.ts";

/**
 * Route option that refuses the request before its input is validated: 401 without a usable
 * credential, 403 without the scope. Handlers then read the caller with `principalOf`.
 */
export const guard = (scope?: Scope) => ({
  transform({ request }: { request: Request }) {
    principalOf(request, scope);
  },
});

import type { Action } from "../../core/index.ts";
import { parsedBody } from "../body.ts";
import { principalOf } from "../request-state.ts";

/**
 * Route option that refuses the request before its input is parsed and validated: 401 without a
 * usable credential, 403 when the caller may not perform `action`; then the JSON body is parsed
 * (400 if it is not JSON). Handlers read the caller with `principalOf`.
 */
export const guard = (action?: Action) => ({
  transform(context: { request: Request; body: unknown }) {
    principalOf(context.request, action);
    context.body = parsedBody(context.body);
  },
});

import type { Action } from "../../core/index.ts";
import { parsedBody } from "../body.ts";
import { type IntegerRange, readQueryIntegers } from "../query-integer.ts";
import { refuseRepeatedQuery } from "../query-once.ts";
import { principalOf } from "../request-state.ts";

export interface GuardOptions {
  /** Integer query parameters and their ranges, read strictly (server/query-integer.ts). */
  integers?: Record<string, IntegerRange>;
  /** Reads the JSON body instead of `parsedBody` (the push keeps its content as bytes, read in slices). */
  body?: (body: unknown, request: Request) => Promise<unknown>;
}

/**
 * Route option that refuses the request before its input is parsed and validated: 401 without a
 * usable credential, 403 when the caller may not perform `action`; then a query parameter given
 * twice is 400, the JSON body is parsed (400 if it is not JSON, 415 if it is another media type) and
 * integer query parameters are read (400 naming the parameter). Handlers read the caller with `principalOf`.
 */
export const guard = (action?: Action, options: GuardOptions = {}) => {
  const read = options.body;
  type Context = { request: Request; body: unknown; query: Record<string, unknown> };
  const check = (request: Request) => {
    principalOf(request, action);
    refuseRepeatedQuery(request.url);
  };
  // The hooks never hand `context` itself to a function: Elysia reads each hook's source to learn
  // which parts of the context a route uses (its "sucrose" inference), and a context passed whole
  // counts as using all of them, so every route would parse cookies (one more await), copy the
  // headers into an object and define a `server` getter on each request (issue 13, small GET).
  // Only a route with its own (asynchronous) body reader pays for an asynchronous hook.
  if (read)
    return {
      async transform(context: Context) {
        check(context.request);
        context.body = await read(context.body, context.request);
        if (options.integers) readQueryIntegers(context.query, options.integers);
      },
    };
  return {
    transform(context: Context) {
      check(context.request);
      context.body = parsedBody(context.body);
      if (options.integers) readQueryIntegers(context.query, options.integers);
    },
  };
};

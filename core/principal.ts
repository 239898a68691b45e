import { ParlanceError } from "./errors.ts";
import type { ApiKey, Scope } from "./types.ts";

/** Who is calling: the key, and the scopes this credential carries (a token may carry fewer). */
export interface Principal {
  key: ApiKey;
  scopes: Scope[];
}

/** Scopes are literal: `admin` implies nothing else (API.md, Authentication 4). */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new ParlanceError("forbidden", `This key lacks the "${scope}" scope`);
  }
}

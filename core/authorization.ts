import { ParlanceError } from "./errors.ts";
import type { Principal } from "./principal.ts";
import type { Scope } from "./types.ts";

/**
 * Everything a principal can be allowed or refused. One table per kind of principal decides; use
 * cases ask `authorize` and never look at scopes or roles themselves.
 */
export type Action =
  | "projects.list"
  | "translations.read"
  | "translations.import"
  | "translations.export"
  | "jobs.read"
  | "coverage.read"
  | "apiKeys.manage";

/** API.md's scope table: exactly one scope per action, and `admin` implies nothing else. */
const SCOPE_FOR: Record<Action, Scope> = {
  "projects.list": "translations:read",
  "translations.read": "translations:read",
  "translations.import": "translations:write",
  "translations.export": "export:read",
  "jobs.read": "translations:read",
  "coverage.read": "translations:read",
  "apiKeys.manage": "admin",
};

/** The scope an API key needs for `action`. */
export const scopeFor = (action: Action): Scope => SCOPE_FOR[action];

/** Whether `principal` may perform `action` in its organization. */
export function isAllowed(principal: Principal, action: Action): boolean {
  switch (principal.kind) {
    case "key":
      return principal.scopes.includes(SCOPE_FOR[action]);
    case "trusted":
      return true;
  }
}

/** Throws 403 (`forbidden`) unless `principal` may perform `action`. */
export function authorize(principal: Principal, action: Action): void {
  if (isAllowed(principal, action)) return;
  if (principal.kind === "key") {
    throw new ParlanceError("forbidden", `This key lacks the "${SCOPE_FOR[action]}" scope`);
  }
  throw new ParlanceError("forbidden", "You are not allowed to do this");
}

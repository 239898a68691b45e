import { ParlanceError } from "./errors.ts";
import type { Principal, Role } from "./principal.ts";
import type { Scope } from "./types.ts";

/**
 * Everything a principal can be allowed or refused. Two tables decide (scopes for API keys, roles
 * for people) and the host's trusted principals may do everything in their organization. Use cases
 * and the HTTP layers ask `authorize` and never look at scopes or roles themselves.
 */
export const ACTIONS = [
  // Reading: every member, and API keys by scope.
  "projects.list",
  "translations.read",
  "translations.export",
  "jobs.read",
  "coverage.read",
  "history.read",
  "members.read",
  // Writing strings.
  "translations.import",
  "records.edit",
  "records.review",
  // Keys (the translation keys of a project).
  "keys.manage",
  "keys.restore",
  // Administration.
  "projects.manage",
  "members.manage",
  "owners.manage",
  "apiKeys.manage",
] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * API.md's scope table: the one scope that allows each action an API key can take, and `admin`
 * implies nothing else. Actions absent here are never allowed to a key (they belong to people).
 */
const SCOPE_FOR: Partial<Record<Action, Scope>> = {
  "projects.list": "translations:read",
  "translations.read": "translations:read",
  "translations.import": "translations:write",
  "translations.export": "export:read",
  "jobs.read": "translations:read",
  "coverage.read": "translations:read",
  "apiKeys.manage": "admin",
};

const ALL: readonly Role[] = ["owner", "admin", "developer", "reviewer", "translator"];
const DEVELOPERS: readonly Role[] = ["owner", "admin", "developer"];
const ADMINS: readonly Role[] = ["owner", "admin"];

/** The role table: which roles may take each action. */
const ROLES_FOR: Record<Action, readonly Role[]> = {
  "projects.list": ALL,
  "translations.read": ALL,
  "translations.export": ALL,
  "jobs.read": ALL,
  "coverage.read": ALL,
  "history.read": ALL,
  "members.read": ALL,
  "translations.import": DEVELOPERS,
  // Editing a value (and setting draft or pending); reviewing sets approved or needs_review.
  "records.edit": ALL,
  "records.review": ["owner", "admin", "reviewer"],
  "keys.manage": DEVELOPERS,
  "keys.restore": ADMINS,
  "projects.manage": ADMINS,
  "members.manage": ADMINS,
  "owners.manage": ["owner"],
  "apiKeys.manage": ADMINS,
};

/** Actions on one language's strings: a member limited to some languages takes them only there. */
const PER_LANGUAGE: ReadonlySet<Action> = new Set(["records.edit", "records.review"]);
/** The roles whose access may be limited to a set of languages. */
const LIMITABLE: ReadonlySet<Role> = new Set(["reviewer", "translator"]);

/** The scope an API key needs for `action`, or null when no key may take it. */
export const scopeFor = (action: Action): Scope | null => SCOPE_FOR[action] ?? null;

/** The roles that may take `action` (in any language they are allowed to write). */
export const rolesFor = (action: Action): readonly Role[] => ROLES_FOR[action];

/** Whether `principal` may perform `action` in its organization (in `language`, for per-language actions). */
export function isAllowed(principal: Principal, action: Action, language?: string): boolean {
  switch (principal.kind) {
    case "key": {
      const scope = SCOPE_FOR[action];
      return scope !== undefined && principal.scopes.includes(scope);
    }
    case "trusted":
      return true;
    case "user": {
      if (!ROLES_FOR[action].includes(principal.role)) return false;
      if (!PER_LANGUAGE.has(action) || !LIMITABLE.has(principal.role) || principal.languages === null)
        return true;
      return language !== undefined && principal.languages.includes(language);
    }
  }
}

/** Throws 403 (`forbidden`) unless `principal` may perform `action` (in `language`). */
export function authorize(principal: Principal, action: Action, language?: string): void {
  if (isAllowed(principal, action, language)) return;
  if (principal.kind === "key") {
    const scope = SCOPE_FOR[action];
    throw new ParlanceError(
      "forbidden",
      scope ? `This key lacks the "${scope}" scope` : "API keys cannot do this; sign in to the workspace",
    );
  }
  if (principal.kind === "user" && PER_LANGUAGE.has(action) && ROLES_FOR[action].includes(principal.role)) {
    throw new ParlanceError("forbidden", `Your role does not allow writing ${language ?? "this language"}`);
  }
  if (principal.kind === "user") {
    // Names who may, so a translator refused an approval knows whom to ask.
    const roles = ROLES_FOR[action];
    throw new ParlanceError(
      "forbidden",
      `Your role (${principal.role}) does not allow this; it takes ${roles.length > 1 ? "one of the roles" : "the role"} ${roles.join(", ")}`,
    );
  }
  throw new ParlanceError("forbidden", "Your role does not allow this");
}

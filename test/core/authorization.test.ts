import { expect, test } from "bun:test";
import {
  ACTIONS,
  type Action,
  type ApiKey,
  appPrincipal,
  authorize,
  isAllowed,
  isParlanceError,
  keyPrincipal,
  operatorPrincipal,
  ROLES,
  type Role,
  SCOPES,
  type Scope,
  type UserPrincipal,
} from "../../core/index.ts";

/** API.md's endpoint table, read as action → the one scope that allows it; other actions: none. */
const KEY_SCOPE: Partial<Record<Action, Scope>> = {
  "projects.list": "translations:read",
  "translations.read": "translations:read",
  "translations.import": "translations:write",
  "translations.export": "export:read",
  "jobs.read": "translations:read",
  "coverage.read": "translations:read",
  "apiKeys.manage": "admin",
};

/**
 * The role matrix as the issue states it, one row per action: O owner, A admin, D developer,
 * R reviewer, T translator. Written out here independently of core's table, which it checks.
 */
const MATRIX: Record<Action, string> = {
  "projects.list": "OADRT",
  "translations.read": "OADRT",
  "translations.export": "OADRT",
  "jobs.read": "OADRT",
  "coverage.read": "OADRT",
  "history.read": "OADRT",
  "members.read": "OADRT",
  "translations.import": "OAD",
  "records.edit": "OADRT",
  "records.review": "OAR",
  "keys.manage": "OAD",
  "keys.restore": "OA",
  "projects.manage": "OA",
  "members.manage": "OA",
  "owners.manage": "O",
  "apiKeys.manage": "OA",
};
const LETTER: Record<Role, string> = {
  owner: "O",
  admin: "A",
  developer: "D",
  reviewer: "R",
  translator: "T",
};

const key = (scopes: Scope[]): ApiKey => ({
  id: crypto.randomUUID(),
  orgId: crypto.randomUUID(),
  name: "ci",
  hash: "0".repeat(64),
  prefix: "pl_000000",
  scopes,
  rateLimit: 1000,
  usageCount: 0,
  active: true,
  expiresAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUsedAt: null,
});

const member = (role: Role, languages: string[] | null = null): UserPrincipal => ({
  kind: "user",
  orgId: crypto.randomUUID(),
  actor: { kind: "user", userId: "u1", name: "Ana" },
  userId: "u1",
  role,
  languages,
});

function refusal(run: () => void): { code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (e) {
    if (!isParlanceError(e)) throw e;
    return { code: e.code, message: e.message };
  }
}

test("the matrix covers every action", () => {
  expect(Object.keys(MATRIX).sort()).toEqual([...ACTIONS].sort());
});

for (const role of ROLES) {
  for (const action of ACTIONS) {
    const allowed = MATRIX[action].includes(LETTER[role]);
    test(`${role} ${allowed ? "may" : "may not"} ${action}`, () => {
      expect(isAllowed(member(role), action, "fr")).toBe(allowed);
      const refused = refusal(() => authorize(member(role), action, "fr"));
      expect(refused?.code ?? "allowed").toBe(allowed ? "allowed" : "forbidden");
    });
  }
}

test("a reviewer or translator limited to fr writes fr only, and still reads everything", () => {
  for (const role of ["reviewer", "translator"] as const) {
    const limited = member(role, ["fr"]);
    expect(isAllowed(limited, "records.edit", "fr")).toBe(true);
    expect(isAllowed(limited, "records.edit", "de")).toBe(false);
    expect(isAllowed(limited, "records.edit")).toBe(false);
    expect(isAllowed(limited, "translations.read")).toBe(true);
    expect(refusal(() => authorize(limited, "records.edit", "de"))).toEqual({
      code: "forbidden",
      message: "Your role does not allow writing de",
    });
  }
  expect(refusal(() => authorize(member("translator"), "records.review", "fr"))).toEqual({
    code: "forbidden",
    message: "Your role (translator) does not allow this; it takes one of the roles owner, admin, reviewer",
  });
  expect(refusal(() => authorize(member("admin"), "owners.manage"))?.message).toBe(
    "Your role (admin) does not allow this; it takes the role owner",
  );
  expect(isAllowed(member("reviewer", ["fr"]), "records.review", "de")).toBe(false);
  expect(isAllowed(member("reviewer", ["fr"]), "records.review", "fr")).toBe(true);
});

test("language limits do not apply to developers, admins and owners", () => {
  for (const role of ["owner", "admin", "developer"] as const) {
    expect(isAllowed(member(role, ["fr"]), "records.edit", "de")).toBe(true);
  }
});

test("a key may do exactly what one of its scopes names; admin implies nothing else", () => {
  for (const scope of SCOPES) {
    const principal = keyPrincipal(key([scope]), [scope]);
    for (const action of ACTIONS) expect(isAllowed(principal, action)).toBe(KEY_SCOPE[action] === scope);
  }
});

test("a token's narrower scopes decide, not its key's", () => {
  const principal = keyPrincipal(key([...SCOPES]), ["export:read"]);
  expect(isAllowed(principal, "translations.export")).toBe(true);
  expect(isAllowed(principal, "translations.import")).toBe(false);
});

test("a key's refusal is 403 and names the missing scope, as /api/v1 has always said", () => {
  const principal = keyPrincipal(key(["translations:read"]), ["translations:read"]);
  expect(refusal(() => authorize(principal, "translations.import"))).toEqual({
    code: "forbidden",
    message: 'This key lacks the "translations:write" scope',
  });
  expect(refusal(() => authorize(keyPrincipal(key([...SCOPES]), [...SCOPES]), "records.edit"))?.code).toBe(
    "forbidden",
  );
});

test("the host application and the operator may do everything in their organization", () => {
  for (const principal of [
    appPrincipal(crypto.randomUUID(), "billing"),
    operatorPrincipal(crypto.randomUUID()),
  ]) {
    for (const action of ACTIONS) expect(isAllowed(principal, action, "fr")).toBe(true);
  }
});

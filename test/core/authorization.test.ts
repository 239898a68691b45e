import { expect, test } from "bun:test";
import {
  type Action,
  type ApiKey,
  appPrincipal,
  authorize,
  isAllowed,
  isParlanceError,
  keyPrincipal,
  operatorPrincipal,
  SCOPES,
  type Scope,
} from "../../core/index.ts";

const ACTIONS: Action[] = [
  "projects.list",
  "translations.read",
  "translations.import",
  "translations.export",
  "jobs.read",
  "coverage.read",
  "apiKeys.manage",
];

/** API.md's endpoint table, read as action → the one scope that allows it. */
const EXPECTED: Record<Action, Scope> = {
  "projects.list": "translations:read",
  "translations.read": "translations:read",
  "translations.import": "translations:write",
  "translations.export": "export:read",
  "jobs.read": "translations:read",
  "coverage.read": "translations:read",
  "apiKeys.manage": "admin",
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

test("a key may do exactly what one of its scopes names; admin implies nothing else", () => {
  for (const scope of SCOPES) {
    const principal = keyPrincipal(key([scope]), [scope]);
    for (const action of ACTIONS) expect(isAllowed(principal, action)).toBe(EXPECTED[action] === scope);
  }
});

test("a token's narrower scopes decide, not its key's", () => {
  const principal = keyPrincipal(key([...SCOPES]), ["export:read"]);
  expect(isAllowed(principal, "translations.export")).toBe(true);
  expect(isAllowed(principal, "translations.import")).toBe(false);
});

test("a refusal is 403 and names the missing scope, as /api/v1 has always said", () => {
  const principal = keyPrincipal(key(["translations:read"]), ["translations:read"]);
  let error: unknown;
  try {
    authorize(principal, "translations.import");
  } catch (e) {
    error = e;
  }
  expect(isParlanceError(error) && error.code).toBe("forbidden");
  expect((error as Error).message).toBe('This key lacks the "translations:write" scope');
});

test("the host application and the operator may do everything in their organization", () => {
  for (const principal of [
    appPrincipal(crypto.randomUUID(), "billing"),
    operatorPrincipal(crypto.randomUUID()),
  ]) {
    for (const action of ACTIONS) expect(isAllowed(principal, action)).toBe(true);
  }
});

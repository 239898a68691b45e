/**
 * No request schema applies a default (issue 10): Elysia applies defaults by cloning the input with
 * assignment, which turns a `"__proto__"` member into the clone's prototype, so fields could be
 * smuggled in. Core applies the defaults; this test keeps every route of /api/v1 and of the
 * workspace free of them, including routes added later.
 */
import { expect, test } from "bun:test";
import type { AnyElysia } from "elysia";
import { createParlance } from "../../adapters/create-parlance.ts";
import { createServer } from "../../server/app.ts";
import { createWorkspace } from "../../server/workspace/app.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";

type Schema = { default?: unknown; properties?: Record<string, Schema>; anyOf?: Schema[]; type?: unknown };

/** Where Elysia would see a default (its hasProperty("default", …) walk), as field paths. */
function defaultsIn(schema: Schema | undefined, path = ""): string[] {
  if (!schema || typeof schema !== "object") return [];
  const found: string[] = [];
  if ("default" in schema) found.push(path || "(root)");
  for (const member of schema.anyOf ?? []) found.push(...defaultsIn(member, path));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push(...defaultsIn(property, path ? `${path}.${name}` : name));
  }
  return found;
}

test("no body, query or params schema of any route has a default", () => {
  const parlance = createParlance({ storage: createMemoryStorage() });
  const apps: AnyElysia[] = [createServer(parlance), createWorkspace(parlance).app];
  const offenders: string[] = [];
  let checked = 0;
  for (const app of apps) {
    for (const route of app.routes) {
      const hooks = route.hooks as Record<string, unknown>;
      for (const part of ["body", "query", "params"]) {
        const schema = hooks[part];
        if (!schema || typeof schema !== "object") continue;
        checked++;
        for (const where of defaultsIn(schema as Schema))
          offenders.push(`${route.method} ${route.path} ${part}: ${where}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(20);
  expect(offenders).toEqual([]);
});

/**
 * A third-party storage adapter, as someone outside this repository would write one: it wraps the
 * memory storage and counts the calls each port receives (what a metrics adapter around a real
 * database would do). examples/toy-adapter.test.ts proves it with Parlance's published suite.
 */
import type { Storage } from "parlance-tms";
import { createMemoryStorage } from "parlance-tms/storage/memory";

export type CallCounts = Map<string, number>;

/** Wraps every method of one port so each call is counted as `<port>.<method>`. */
function counted<T extends object>(port: T, name: string, calls: CallCounts): T {
  const wrapped: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(port)) {
    wrapped[method] =
      typeof fn === "function"
        ? (...args: unknown[]) => {
            calls.set(`${name}.${method}`, (calls.get(`${name}.${method}`) ?? 0) + 1);
            return fn.apply(port, args);
          }
        : fn;
  }
  return wrapped as T;
}

export function createCountingStorage(): Storage & { calls: CallCounts } {
  const inner = createMemoryStorage();
  const calls: CallCounts = new Map();
  return {
    users: counted(inner.users, "users", calls),
    memberships: counted(inner.memberships, "memberships", calls),
    sessions: counted(inner.sessions, "sessions", calls),
    oneTimeTokens: counted(inner.oneTimeTokens, "oneTimeTokens", calls),
    orgs: counted(inner.orgs, "orgs", calls),
    projects: counted(inner.projects, "projects", calls),
    keys: counted(inner.keys, "keys", calls),
    tokens: counted(inner.tokens, "tokens", calls),
    translations: counted(inner.translations, "translations", calls),
    records: counted(inner.records, "records", calls),
    jobs: counted(inner.jobs, "jobs", calls),
    environments: counted(inner.environments, "environments", calls),
    rateWindows: counted(inner.rateWindows, "rateWindows", calls),
    shared: inner.shared,
    exclusive: (name, fn) => inner.exclusive(name, fn),
    ping: () => inner.ping(),
    close: () => inner.close(),
    calls,
  };
}

import type { Storage } from "../../core/ports.ts";
import type {
  AccessToken,
  ApiKey,
  Job,
  Organization,
  Project,
  TranslationStatus,
  TranslationWrite,
} from "../../core/types.ts";
import { expect } from "./expect.ts";

export const id = (): string => crypto.randomUUID();

const T0 = Date.UTC(2026, 0, 1);
/** A fixed instant, `minutes` after 2026-01-01T00:00:00Z: tests never read the clock. */
export const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();

export const org = (over: Partial<Organization> = {}): Organization => ({
  id: id(),
  name: "Acme",
  maxTranslations: null,
  createdAt: at(0),
  ...over,
});

export const project = (orgId: string, over: Partial<Project> = {}): Project => ({
  id: id(),
  orgId,
  name: "Website",
  baseLanguage: "en",
  languages: ["en", "fr", "de"],
  deletedAt: null,
  createdAt: at(0),
  ...over,
});

export const apiKey = (orgId: string, over: Partial<ApiKey> = {}): ApiKey => ({
  id: id(),
  orgId,
  name: `key-${id()}`,
  hash: id().replaceAll("-", "") + id().replaceAll("-", ""),
  prefix: "pl_abcdef",
  scopes: ["translations:read", "export:read"],
  rateLimit: 1000,
  usageCount: 0,
  active: true,
  expiresAt: null,
  createdAt: at(0),
  lastUsedAt: null,
  ...over,
});

export const token = (keyId: string, over: Partial<AccessToken> = {}): AccessToken => ({
  hash: id().replaceAll("-", ""),
  keyId,
  scopes: ["translations:read"],
  expiresAt: at(60),
  createdAt: at(0),
  ...over,
});

export const job = (p: Project, over: Partial<Job> = {}): Job => ({
  id: id(),
  orgId: p.orgId,
  projectId: p.id,
  type: "import",
  status: "pending",
  runId: id(),
  summary: { created: 0, updated: 0 },
  errorMessage: null,
  payload: {
    language: "en",
    importMode: "merge",
    status: "draft",
    content: new TextEncoder().encode('{"a":"b"}'),
  },
  leaseUntil: null,
  attempts: 0,
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

/** An organization with one project, both stored. */
export async function seedProject(storage: Storage, over: Partial<Project> = {}): Promise<Project> {
  const o = org();
  await storage.orgs.create(o);
  const p = project(o.id, over);
  await storage.projects.create(p);
  return p;
}

/** key → value (status "draft"), or full writes. */
export type Rows = Record<string, string> | TranslationWrite[];

export function writes(rows: Rows, status: TranslationStatus = "draft"): TranslationWrite[] {
  if (Array.isArray(rows)) return rows;
  return Object.entries(rows).map(([key, value]) => ({ id: id(), key, value, status }));
}

/**
 * Stores rows the only way the port allows: through a completed import job. Call it before the
 * test creates jobs of its own, or the claim below could take one of them.
 */
export async function importRows(
  storage: Storage,
  p: Project,
  language: string,
  rows: Rows,
  options: { deleteIds?: string[]; now?: string } = {},
): Promise<void> {
  const j = job(p);
  await storage.jobs.create(j);
  const runId = id();
  const claimed = await storage.jobs.claimNext(runId, at(1), at(10));
  expect(claimed?.id).toBe(j.id);
  const commit = {
    projectId: p.id,
    language,
    writes: writes(rows),
    deleteIds: options.deleteIds ?? [],
    summary: { created: 0, updated: 0 },
  };
  expect(await storage.jobs.complete(j.id, runId, commit, options.now ?? at(2))).toBe(true);
}

/** The value, or a failed test when it is missing (index reads are typed `T | undefined`). */
export function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("Expected a value");
  return value;
}

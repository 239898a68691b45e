/**
 * CONTRACT §9: where the client finds the server, its key and the default project. Each setting is
 * resolved on its own — flag, else environment variable, else `parlance.config.json` — so a
 * committed config file can name the server and project while the key stays in a CI secret.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { commandLineError, usageError } from "./errors.ts";

export const CONFIG_FILE = "parlance.config.json";

export interface Settings {
  baseUrl: string;
  apiKey: string;
  projectId?: string;
}

export interface SettingSources {
  flags: { baseUrl?: string; apiKey?: string; project?: string };
  env: Record<string, string | undefined>;
  cwd: string;
}

interface FileConfig {
  path: string;
  baseUrl?: string;
  apiKey?: string;
  projectId?: string;
}

/** The nearest `parlance.config.json` from `cwd` up to the file system's root, if any. */
export function findConfigFile(cwd: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function readConfigFile(path: string): FileConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw usageError(`${path} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw usageError(`${path} must hold a JSON object`);
  const config: FileConfig = { path };
  for (const field of ["baseUrl", "apiKey", "projectId"] as const) {
    const value = (parsed as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "")
      throw usageError(`${path}: "${field}" must be a non-empty string`);
    config[field] = value;
  }
  return config;
}

/**
 * API.md's `{base_url}` is the root the `/api/v1` paths are appended to; a URL that already ends in
 * `/api/v1` (a natural thing to paste) is accepted and trimmed rather than doubled.
 */
export function normalizeBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`${source}: ${JSON.stringify(raw)} is not a URL (expected e.g. http://localhost:8080)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw usageError(`${source}: the base URL must start with http:// or https://`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${url.origin}${path}`;
}

/** An empty variable counts as unset, as shells make `PARLANCE_API_KEY=` the usual way to clear one. */
const envValue = (env: SettingSources["env"], name: string) => env[name] || undefined;

export function resolveSettings({ flags, env, cwd }: SettingSources, needProject: boolean): Settings {
  let baseUrl = flags.baseUrl ?? envValue(env, "PARLANCE_BASE_URL");
  let apiKey = flags.apiKey ?? envValue(env, "PARLANCE_API_KEY");
  let projectId = flags.project;
  let baseUrlSource = flags.baseUrl !== undefined ? "--base-url" : "PARLANCE_BASE_URL";
  // The file is read only when something is still missing, so a broken file elsewhere up the tree
  // does not stop a command that names everything itself.
  if (baseUrl === undefined || apiKey === undefined || (needProject && projectId === undefined)) {
    const path = findConfigFile(cwd);
    const file = path ? readConfigFile(path) : undefined;
    if (baseUrl === undefined && file?.baseUrl !== undefined) {
      baseUrl = file.baseUrl;
      baseUrlSource = file.path;
    }
    apiKey ??= file?.apiKey;
    projectId ??= file?.projectId;
  }
  if (baseUrl === undefined)
    throw usageError(
      `no server address: pass --base-url, set PARLANCE_BASE_URL, or put "baseUrl" in ${CONFIG_FILE}`,
    );
  if (apiKey === undefined)
    throw usageError(`no API key: pass --api-key, set PARLANCE_API_KEY, or put "apiKey" in ${CONFIG_FILE}`);
  if (needProject && projectId === undefined)
    throw commandLineError(`--project is required (or put "projectId" in ${CONFIG_FILE})`);
  return { baseUrl: normalizeBaseUrl(baseUrl, baseUrlSource), apiKey, projectId };
}

/** Everything the server reads from the environment (CONTRACT §1), parsed in one place. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** False when PARLANCE_DATABASE_URL is unset and the default applies (messages say which). */
  databaseUrlFromEnv: boolean;
  development: boolean;
  bootstrap: boolean;
  anonRateLimit: number;
  /** Reverse proxies of the operator's in front of the server (0: none): PARLANCE_TRUST_PROXY. */
  trustProxy: number;
  /** How long an instance holds a claimed job before another may take it over. */
  jobLeaseMs: number;
  /** PARLANCE_PUBLIC_URL: the origin people reach the server at (links, CSRF, Secure cookies). */
  publicUrl: string | undefined;
  /** Execution attempts of a job before it is failed instead of run again. */
  jobMaxAttempts: number;
  /** Unfinished import jobs the store may hold before pushes are refused with 429. */
  maxQueuedJobs: number;
}

export const DEFAULT_DATABASE_URL = "sqlite:./data/parlance.sqlite";

function integer(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

function publicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("PARLANCE_PUBLIC_URL must be an http or https URL, such as https://tms.example.com");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error("PARLANCE_PUBLIC_URL must be an http or https URL, such as https://tms.example.com");
  return url.origin;
}

export function readConfig(env: Record<string, string | undefined>): Config {
  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: env.PARLANCE_HOST || "0.0.0.0",
    databaseUrl: env.PARLANCE_DATABASE_URL || DEFAULT_DATABASE_URL,
    databaseUrlFromEnv: Boolean(env.PARLANCE_DATABASE_URL),
    development: env.PARLANCE_ENV === "development",
    bootstrap: env.PARLANCE_BOOTSTRAP !== "0",
    anonRateLimit: integer(env, "PARLANCE_ANON_RATE_LIMIT", 1000, 1, 1_000_000),
    trustProxy: integer(env, "PARLANCE_TRUST_PROXY", 0, 0, 16),
    jobLeaseMs: integer(env, "PARLANCE_JOB_LEASE_MS", 30_000, 1_000, 3_600_000),
    publicUrl: publicUrl(env.PARLANCE_PUBLIC_URL),
    jobMaxAttempts: integer(env, "PARLANCE_JOB_MAX_ATTEMPTS", 3, 1, 100),
    maxQueuedJobs: integer(env, "PARLANCE_MAX_QUEUED_JOBS", 100, 1, 1_000_000),
  };
}

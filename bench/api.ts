/** The bench's HTTP client: every request carries the next key of a pool, so no key's hourly limit is reached. */
import { benchFetch } from "./http.ts";
import { since } from "./stats.ts";

const REQUEST_TIMEOUT_MS = 120_000;
const JOB_TIMEOUT_MS = 300_000;
const POLL_EVERY_MS = 10;

export const ALL_SCOPES = ["admin", "export:read", "translations:read", "translations:write"];

export class Api {
  private at = 0;

  constructor(
    readonly baseUrl: string,
    private readonly keys: readonly string[],
  ) {
    if (keys.length === 0) throw new Error("Api needs at least one key");
  }

  withKeys(keys: readonly string[]): Api {
    return new Api(this.baseUrl, keys);
  }

  fetch(method: string, path: string, body?: string, extra: Record<string, string> = {}): Promise<Response> {
    this.at = (this.at + 1) % this.keys.length;
    const headers: Record<string, string> = { ...extra, authorization: `Bearer ${this.keys[this.at]}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    return benchFetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }

  /** The JSON answer of a request that must succeed. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(method, path, body === undefined ? undefined : JSON.stringify(body));
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }
}

/** Creates `count` keys with the highest rate limit the API allows (10,000 per hour each). */
export async function createKeys(
  api: Api,
  prefix: string,
  count: number,
  scopes = ALL_SCOPES,
): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i += 16) {
    const batch = Array.from({ length: Math.min(16, count - i) }, (_, j) =>
      api.json<{ data: { key: string } }>("POST", "/api/v1/api-keys", {
        name: `${prefix}-${i + j}`,
        scopes,
        rateLimit: 10_000,
      }),
    );
    for (const created of await Promise.all(batch)) keys.push(created.data.key);
  }
  return keys;
}

export interface PushTiming {
  /** From sending the request to the job reading `completed`. */
  ms: number;
  /** From sending the request to its 202. */
  acceptMs: number;
}

/** POSTs a prepared /push body (merge) and polls the job every 10 ms until it is completed. */
export async function pushAndWait(api: Api, body: string): Promise<PushTiming> {
  const start = performance.now();
  const res = await api.fetch("POST", "/api/v1/push", body);
  const text = await res.text();
  if (res.status !== 202) throw new Error(`push answered ${res.status}: ${text.slice(0, 500)}`);
  const acceptMs = since(start);
  const { jobId } = JSON.parse(text) as { jobId: string };
  for (;;) {
    const { data } = await api.json<{ data: { status: string; errorMessage: string | null } }>(
      "GET",
      `/api/v1/jobs/${jobId}`,
    );
    if (data.status === "completed") return { ms: since(start), acceptMs };
    if (data.status === "failed") throw new Error(`push job failed: ${data.errorMessage}`);
    if (since(start) > JOB_TIMEOUT_MS)
      throw new Error(`push job still ${data.status} after ${JOB_TIMEOUT_MS} ms`);
    await Bun.sleep(POLL_EVERY_MS);
  }
}

export const pushBody = (projectId: string, language: string, content: string) =>
  JSON.stringify({ projectId, language, content, importMode: "merge" });

/** One pull, timed until the whole body has arrived. */
export async function timedPull(
  api: Api,
  projectId: string,
  language: string,
  format: string,
): Promise<{ ms: number; bytes: number }> {
  const path = `/api/v1/pull?project_id=${projectId}&language=${language}&format=${format}`;
  const start = performance.now();
  const res = await api.fetch("GET", path);
  const body = await res.arrayBuffer();
  const ms = since(start);
  if (res.status !== 200)
    throw new Error(`pull ${format} answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
  return { ms, bytes: body.byteLength };
}

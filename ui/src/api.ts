/**
 * The workspace API client: JSON over fetch to /api/workspace, with the session cookie. Errors
 * arrive as the API's Error object and are thrown as ApiError (the 412 body keeps `current`).
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const API = "/api/workspace";

/** Called on any 401 from a signed-in page: the session ended elsewhere. */
let onUnauthenticated: () => void = () => {};
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: "same-origin",
    headers: { accept: "application/json", ...headers },
  };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  let response: Response;
  try {
    response = await fetch(API + path, init);
  } catch {
    throw new ApiError(0, "The server cannot be reached. Check your connection and try again.", {});
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const errorBody = (parsed && typeof parsed === "object" ? parsed : {}) as Record<string, unknown>;
    const message =
      typeof errorBody.error === "string" ? errorBody.error : `Request failed (${response.status})`;
    if (response.status === 401 && path !== "/session" && path !== "/me") onUnauthenticated();
    throw new ApiError(response.status, message, errorBody);
  }
  return parsed as T;
}

/** `{data}` envelopes are unwrapped; other bodies are returned as they are. */
export async function apiData<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await api<{ data?: T } & Record<string, unknown>>(method, path, body);
  return (answer && typeof answer === "object" && "data" in answer ? answer.data : answer) as T;
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : "Something went wrong.";

import { ClientError } from "./errors.ts";

/** An answer the server refused; `message` is the Error object's `error` (API.md), as the user should read it. */
export class ApiError extends ClientError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, 1);
  }
}

/** What to change when a proxy in front refused the request, by its status. */
const PROXY_ADVICE: Record<number, string> = {
  413: "; let it pass bodies of up to 13 MiB (nginx: client_max_body_size 13m)",
};

/**
 * Reads the Error object of a failed response. Anything else (a proxy's HTML page, an empty body)
 * falls back to the status line and says that something in front of Parlance answered.
 */
export async function apiErrorFrom(res: Response, suffix = ""): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let message =
    `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}, without Parlance's Error object: ` +
    `most likely a proxy in front of it answered${PROXY_ADVICE[res.status] ?? ""}`;
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown };
    if (typeof body.error === "string" && body.error !== "") {
      message = `${body.error} (HTTP ${res.status})`;
      // `details` only comes from a server in development mode; worth showing when it does.
      if (typeof body.details === "string" && body.details !== "") message += `\n${body.details}`;
    }
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(suffix ? `${message} ${suffix}` : message, res.status);
}

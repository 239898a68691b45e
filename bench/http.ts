/**
 * The bench's requests share one connection pool whose idle connections are closed well before the
 * server closes them (IDLE_TIMEOUT_SECONDS, server/host-bun.ts). With fetch's default (300 s), a
 * request could pick a connection the server was closing at that instant and fail with
 * ECONNRESET, as one of four pushes sent at once did in a full run (2026-11-27).
 */
export const CLIENT_IDLE_SECONDS = 12;
/** Bun's socket timer moves in 4-second steps and may close an idle connection up to two late. */
export const CLIENT_IDLE_LATEST_SECONDS = CLIENT_IDLE_SECONDS + 8;

const session = new Bun.FetchSession({ keepAlive: { idleTimeout: CLIENT_IDLE_SECONDS } });

export const benchFetch: (input: string, init?: RequestInit) => Promise<Response> = session.fetch;

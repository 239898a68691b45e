import type { Logger } from "../core/index.ts";

/** One JSON line per event on stderr. Callers never pass secrets (keys, tokens, headers). */
export const stderrLogger: Logger = (level, message, fields = {}) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
};

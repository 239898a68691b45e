import type { Config } from "../config.ts";
import { optional, type ParsedArgs, UsageError } from "./args.ts";

export const SERVE_FLAGS = ["port", "host"] as const;

/** `serve --port N --host ADDR`: flags win over PORT and PARLANCE_HOST. */
export function withServeFlags(config: Config, args: ParsedArgs): Config {
  const port = optional(args, "port");
  const host = optional(args, "host");
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535))
    throw new UsageError(`--port must be an integer from 0 to 65535 (got ${JSON.stringify(port)})`);
  if (host === "") throw new UsageError("--host needs a value");
  return {
    ...config,
    ...(port === undefined ? {} : { port: Number(port) }),
    ...(host === undefined ? {} : { host }),
  };
}

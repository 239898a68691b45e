/**
 * Flag checks on top of ../args.ts for the client verbs. Unknown flags are refused rather than
 * ignored: a mistyped `--projet` should not quietly fall back to the config file's project.
 */
import { flagLabel, optional, type ParsedArgs } from "../args.ts";
import { commandLineError } from "./errors.ts";

/** Accepted by every client verb. */
export const CONNECTION_FLAGS = ["base-url", "api-key"] as const;

export function checkArgs(args: ParsedArgs, verb: string, allowed: readonly string[]): void {
  const known = new Set<string>([...CONNECTION_FLAGS, ...allowed]);
  for (const name of args.flags.keys())
    if (!known.has(name)) throw commandLineError(`${verb}: unknown option ${flagLabel(name)}`);
  const extra = args.positionals.slice(1);
  if (extra.length > 0) throw commandLineError(`${verb}: unexpected argument ${JSON.stringify(extra[0])}`);
}

/** A switch such as `--dry-run`; given a value (`--json yes`) it is a mistake, not a yes. */
export function switchFlag(args: ParsedArgs, name: string): boolean {
  const v = args.flags.get(name);
  if (v === undefined) return false;
  if (v !== true) throw commandLineError(`--${name} takes no value (got ${JSON.stringify(v)})`);
  return true;
}

export function requiredValue(args: ParsedArgs, name: string): string {
  const v = valueFlag(args, name);
  if (v === undefined || v === "") throw commandLineError(`--${name} is required`);
  return v;
}

export function valueFlag(args: ParsedArgs, name: string): string | undefined {
  try {
    return optional(args, name);
  } catch (e) {
    throw commandLineError(e instanceof Error ? e.message : String(e));
  }
}

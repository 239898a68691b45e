/**
 * `--name value`, `--name=value`, `--switch` and positionals. `--help`, `-h` and `--version` never
 * take a value, so `parlance admin --help org` is help, not a flag "help" set to "org". Any other
 * token starting with one dash (`-x`) outside a flag's value is kept as an unknown option named
 * `-x`, to be refused rather than taken for a positional; `-` alone is a positional (stdin/stdout).
 */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Flags every command accepts, handled before the command runs. */
export const GLOBAL_SWITCHES = ["help", "version"] as const;

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "-h") {
      flags.set("help", true);
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      if (arg.startsWith("-") && arg.length > 1 && arg !== "--") flags.set(arg, true);
      else positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const name = arg.slice(2);
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--") && !isGlobalSwitch(name)) {
      flags.set(name, next);
      i++;
    } else flags.set(name, true);
  }
  return { positionals, flags };
}

const isGlobalSwitch = (name: string) => (GLOBAL_SWITCHES as readonly string[]).includes(name);

/** How a flag is written on the command line: `--name`, or `-x` as it was typed. */
export const flagLabel = (name: string): string => (name.startsWith("-") ? name : `--${name}`);

/**
 * A mistake in the command line: the message, then the usage of the command (the one given, or
 * the usage of the command being run), exit code 2.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    public usage?: string,
  ) {
    super(message);
  }
}

/** Refuses flags the command does not know and positionals beyond its name. */
export function checkFlags(
  args: ParsedArgs,
  command: string,
  allowed: readonly string[],
  positionals: number,
): void {
  const known = new Set<string>([...GLOBAL_SWITCHES, ...allowed]);
  for (const name of args.flags.keys())
    if (!known.has(name)) throw new UsageError(`${command}: unknown option ${flagLabel(name)}`);
  const extra = args.positionals.slice(positionals);
  if (extra.length > 0) throw new UsageError(`${command}: unexpected argument ${JSON.stringify(extra[0])}`);
}

export function required(args: ParsedArgs, name: string): string {
  const v = args.flags.get(name);
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

export function optional(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function integerFlag(args: ParsedArgs, name: string): number | undefined {
  const v = optional(args, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer`);
  return Number(v);
}

export const list = (v: string): string[] =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

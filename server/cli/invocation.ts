import { isAbsolute, relative } from "node:path";

/** What the process knows about how the user started it. */
export interface Invocation {
  /** `process.argv0`: the program as the user typed it (`./parlance`, `dist/parlance`, `bun`). */
  argv0: string;
  /** The entry module's path; inside a compiled binary it is under Bun's virtual `/$bunfs/`. */
  main: string;
  /** The `parlance` command's file (server/cli.ts), for runs from the repository. */
  cliPath: string;
  /** `npm_lifecycle_event`: set when a package.json script (`bun run start`) started us. */
  script: string | undefined;
  cwd: string;
}

/**
 * The `parlance` command spelled the way this process was started, for hints that show a command
 * to run next (the first-start banner): `./parlance` beside a binary, `bun run parlance` when a
 * package script started the server, `bunx -p parlance-tms parlance` from an installed package, `bun server/cli.ts`
 * when the file was run directly.
 */
export function commandAsInvoked(inv: Invocation): string {
  // Bun's virtual file system: "/$bunfs/…" on Unix, "B:/~BUN/…" on Windows.
  if (inv.main.startsWith("/$bunfs/") || inv.main.includes("~BUN")) return quoted(inv.argv0);
  if (inv.script !== undefined && inv.script !== "") return "bun run parlance";
  // Installed as a package: its bin, from the project that installed it.
  // `-p`: the bin of this package, never an npm package of that bin's name fetched from elsewhere.
  if (/[/\\]node_modules[/\\]parlance-tms[/\\]/.test(inv.cliPath)) return "bunx -p parlance-tms parlance";
  const path = relative(inv.cwd, inv.cliPath);
  return `bun ${quoted(path.startsWith("..") || isAbsolute(path) ? inv.cliPath : path)}`;
}

/** A path with spaces or shell characters in single quotes, so the hint can be pasted. */
const quoted = (word: string): string =>
  /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

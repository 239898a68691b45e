/**
 * A fresh project outside the repository that installs the packed tarball like any user would:
 * `npm pack` here, `npm install <tarball>` there, then the examples copied in and run. The project
 * sees the package and its dependencies only, never the repository's sources.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO, tempDir } from "../support/process.ts";

/** Node 22+ from the npm registry (the `node` dev dependency) and Deno likewise. */
export const NODE = join(REPO, "node_modules", "node", "bin", "node");
export const DENO = join(REPO, "node_modules", "deno", "deno");
export const PACKAGE_NAME = "parlance-tms";
/**
 * vitest for the contract suite's fourth runner. Not a dependency of the repository (nothing there
 * runs it), so pinned here: only the consumer installs it.
 */
const VITEST = "5.1.1";

const env = () => ({
  ...process.env,
  // npm and anything it starts run on Node 22, whatever node the machine has.
  PATH: `${dirname(NODE)}:${process.env.PATH}`,
  NO_COLOR: "1",
  NODE_NO_WARNINGS: "1",
});

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(command: string[], cwd: string, timeoutMs = 120_000): Promise<Run> {
  const proc = Bun.spawn(command, { cwd, env: env(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill(), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

async function mustRun(command: string[], cwd: string, timeoutMs?: number): Promise<string> {
  const result = await run(command, cwd, timeoutMs);
  if (result.code !== 0)
    throw new Error(`${command.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const repoPackage = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const versionOf = (name: string) => {
  const version = repoPackage.dependencies[name] ?? repoPackage.devDependencies[name];
  if (!version) throw new Error(`the repository does not depend on ${name}`);
  return version;
};

export interface Consumer {
  dir: string;
  tarball: string;
}

/** Packs the repository (npm runs the build as prepack) and installs the tarball into a new project. */
export async function createConsumer(): Promise<Consumer> {
  const dir = tempDir("parlance-consumer-");
  const packed = await mustRun(["npm", "pack", "--silent", "--pack-destination", dir], REPO, 180_000);
  const tarball = join(dir, packed.trim().split("\n").at(-1) ?? "");
  const manifest = {
    name: "parlance-consumer",
    private: true,
    type: "module",
    dependencies: {
      [PACKAGE_NAME]: `file:${tarball}`,
      // What the examples use beside Parlance, at the versions the repository is tested with.
      "@hono/node-server": versionOf("@hono/node-server"),
      elysia: versionOf("elysia"),
      hono: versionOf("hono"),
      postgres: versionOf("postgres"),
    },
    devDependencies: {
      // Bun's types bring Node's, at the version they are written against.
      "@types/bun": versionOf("@types/bun"),
      typescript: versionOf("typescript"),
      vitest: VITEST,
    },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: ["bun"],
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        skipLibCheck: false,
      },
      include: ["*.ts"],
    }),
  );
  for (const file of readdirSync(join(REPO, "examples"))) {
    if (file.endsWith(".ts")) copyFileSync(join(REPO, "examples", file), join(dir, file));
  }
  await mustRun(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline"], dir, 180_000);
  return { dir, tarball };
}

export type Runtime = "bun" | "node" | "deno";
export const RUNTIMES: Runtime[] = ["bun", "node", "deno"];

/** Runs a TypeScript file as a script (Node 22 strips the types itself). */
export function script(runtime: Runtime, file: string, ...args: string[]): string[] {
  if (runtime === "bun") return ["bun", file, ...args];
  if (runtime === "node") return [NODE, file, ...args];
  return [DENO, "run", "-A", file, ...args];
}

/** Runs a node:test file with the runtime's own test command. */
export function testFile(runtime: Runtime, file: string): string[] {
  if (runtime === "bun") return ["bun", "test", `./${file}`];
  if (runtime === "node") return [NODE, "--test", file];
  return [DENO, "test", "-A", "--no-check", file];
}

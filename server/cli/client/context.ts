import type { Http } from "./http.ts";

/** Where a verb writes: stdout gets only the documented output, stderr everything said along the way. */
export interface Output {
  write(chunk: string | Uint8Array): unknown;
  isTTY?: boolean;
}

export interface ClientContext {
  http: Http;
  /** From --project or the config file's projectId, for the verbs that need one. */
  projectId: string;
  /** The working folder: where the config lookup starts and where pulled files land. */
  cwd: string;
  stdout: Output;
  stderr: Output;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export const say = (out: Output, message: string) => out.write(`parlance: ${message}\n`);

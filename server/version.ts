/**
 * The version of package.json. Imported (not read from disk at run time) so that the compiled
 * binary, which has no package.json beside it, carries it too.
 */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;

/**
 * The API-reference viewer's files (swagger-ui-dist, pinned in package.json), imported as text so
 * that `bun build --compile` embeds them in the binary and Deno (--unstable-raw-imports) reads them
 * the same way: the docs page needs nothing from the network or beside the executable.
 */

import css from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import bundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };

export const VIEWER = { bundle, css };

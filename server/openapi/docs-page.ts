import { VIEWER } from "./viewer-assets.ts";

export const SPEC_PATH = "/api/v1/openapi.json";
export const DOCS_PATH = "/api/v1/docs";

/**
 * The page's Content-Security-Policy: its own scripts and styles only, the document from the same
 * origin, nothing inline (the viewer is started by init.js) and nothing from elsewhere. `data:`
 * images are the viewer's icons, inlined in its stylesheet.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parlance API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document itself is at
<a href="${SPEC_PATH}">${SPEC_PATH}</a>.</noscript>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

/** Starts the viewer on the document, by its absolute path; no validator badge (it calls out). */
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(SPEC_PATH)},
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 1,
  displayRequestDuration: true,
});
`;

export interface DocsFile {
  body: Uint8Array;
  contentType: string;
  etag: string;
}

/** FNV-1a of the text: a validator that changes with the file, on every runtime. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

const file = (text: string, contentType: string): DocsFile => ({
  body: new TextEncoder().encode(text),
  contentType,
  etag: `"${fingerprint(text)}-${text.length.toString(16)}"`,
});

/** The page and the files it loads, by the last segment of their path; built on first use. */
let files: Map<string, DocsFile> | undefined;
export function docsFiles(): Map<string, DocsFile> {
  files ??= new Map([
    ["", file(PAGE, "text/html; charset=utf-8")],
    ["init.js", file(INIT, "text/javascript; charset=utf-8")],
    ["swagger-ui-bundle.js", file(VIEWER.bundle, "text/javascript; charset=utf-8")],
    ["swagger-ui.css", file(VIEWER.css, "text/css; charset=utf-8")],
  ]);
  return files;
}

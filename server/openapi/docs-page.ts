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

/**
 * The page, for an API served under `basePath` ("" at the root, "/i18n" under a host's prefix):
 * every path it loads is absolute, so it works with or without a trailing slash, and starts with
 * the base path, so a mounted API loads its own files rather than the host's.
 */
const page = (basePath: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parlance API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${basePath}${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document itself is at
<a href="${basePath}${SPEC_PATH}">${basePath}${SPEC_PATH}</a>.</noscript>
<div id="swagger-ui"></div>
<script src="${basePath}${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${basePath}${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

/** Starts the viewer on the document, by its absolute path; no validator badge (it calls out). */
const init = (basePath: string) => `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(basePath + SPEC_PATH)},
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

/** The viewer's own files, the same under every base path; built on first use. */
let viewer: Map<string, DocsFile> | undefined;

/** The page and the files it loads for an API under `basePath`, by the last segment of their path. */
export function docsFiles(basePath: string): Map<string, DocsFile> {
  viewer ??= new Map([
    ["swagger-ui-bundle.js", file(VIEWER.bundle, "text/javascript; charset=utf-8")],
    ["swagger-ui.css", file(VIEWER.css, "text/css; charset=utf-8")],
  ]);
  return new Map([
    ["", file(page(basePath), "text/html; charset=utf-8")],
    ["init.js", file(init(basePath), "text/javascript; charset=utf-8")],
    ...viewer,
  ]);
}

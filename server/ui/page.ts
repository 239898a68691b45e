/**
 * The browser workspace's page and files, from the bundle ui/build.ts generated (embedded in the
 * code, so every runtime and the binary serve the same bytes). Asset names carry a content hash,
 * so they are cached for a year; the page itself is revalidated on every load.
 */
import { UI_ENTRY, UI_FILES, UI_TYPES } from "../../ui/dist/bundle.ts";

/** Paths the server answers with the workspace page; the page's own router takes it from there. */
export const UI_PAGES = ["/", "/signin", "/setup", "/invite", "/reset", "/account", "/members", "/api-keys"];
/** Prefixes of workspace pages with ids in their path. */
export const UI_PAGE_PREFIXES = ["/projects"];
export const ASSET_PREFIX = "/assets";

/**
 * Strict CSP: scripts, styles, fonts and connections from this origin only, nothing inline,
 * no framing. `data:` images are the page's empty favicon.
 */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers of every workspace answer (page and assets). */
export const UI_SECURITY_HEADERS: Record<string, string> = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Parlance</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PREFIX}/${UI_ENTRY.style}">
<script type="module" src="${ASSET_PREFIX}/${UI_ENTRY.script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The Parlance workspace needs JavaScript. The API is described at <a href="/api/v1/docs">/api/v1/docs</a>.</noscript>
</body>
</html>
`;

export interface UiFile {
  body: string;
  contentType: string;
  etag: string;
}

/** FNV-1a of the text: an ETag that changes with the page, on every runtime. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `"${(hash >>> 0).toString(16).padStart(8, "0")}-${text.length.toString(16)}"`;
}

export const UI_PAGE: UiFile = {
  body: PAGE,
  contentType: "text/html; charset=utf-8",
  etag: fingerprint(PAGE),
};

/** An asset by its (hashed) file name, or undefined. */
export function uiAsset(name: string): UiFile | undefined {
  if (!Object.hasOwn(UI_FILES, name)) return undefined;
  const body = UI_FILES[name] as string;
  return { body, contentType: UI_TYPES[name] ?? "application/octet-stream", etag: `"${name}"` };
}

export const isUiPage = (path: string): boolean =>
  UI_PAGES.includes(path) || UI_PAGE_PREFIXES.some((p) => path.startsWith(`${p}/`));

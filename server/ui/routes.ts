import { Elysia } from "elysia";
import { notFound } from "../../core/errors.ts";
import { etagMatches } from "../routes/pull.ts";
import {
  ASSET_PREFIX,
  UI_CSP,
  UI_PAGE,
  UI_PAGE_PREFIXES,
  UI_PAGES,
  UI_SECURITY_HEADERS,
  type UiFile,
  uiAsset,
} from "./page.ts";

type Set = { headers: Record<string, unknown>; status?: number | string };

/** Answers one file with its validators; 304 when the browser already holds it. */
function send(file: UiFile, request: Request, set: Set, cacheControl: string) {
  Object.assign(set.headers, UI_SECURITY_HEADERS);
  set.headers.etag = file.etag;
  set.headers["cache-control"] = cacheControl;
  if (etagMatches(request.headers.get("if-none-match"), file.etag))
    return new Response(null, { status: 304, headers: set.headers as Record<string, string> });
  set.headers["content-type"] = file.contentType;
  return file.body;
}

/**
 * The browser workspace: its page at every workspace path (the page routes itself) and its
 * hashed assets. No authentication here: the page holds no data; it asks /api/workspace.
 */
export function workspaceUiRoutes(basePath = "") {
  // The page routes itself, links and calls the API by absolute paths: it works at the root of an
  // origin only. Under a host's prefix it is not served, rather than served broken.
  if (basePath !== "") return new Elysia({ name: "workspace-ui" });
  const hide = { detail: { hide: true } };
  const page = ({ request, set }: { request: Request; set: Set }) => {
    set.headers["content-security-policy"] = UI_CSP;
    return send(UI_PAGE, request, set, "no-cache");
  };
  const plugin = new Elysia({ name: "workspace-ui" }).get(
    `${ASSET_PREFIX}/:file`,
    ({ request, set, params }) => {
      const file = uiAsset(params.file);
      if (!file) throw notFound(`No route GET ${ASSET_PREFIX}/${params.file}`);
      return send(file, request, set, "public, max-age=31536000, immutable");
    },
    hide,
  );
  for (const path of UI_PAGES) plugin.get(path, page, hide);
  for (const prefix of UI_PAGE_PREFIXES) plugin.get(`${prefix}/*`, page, hide);
  return plugin;
}

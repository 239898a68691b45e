import { Elysia } from "elysia";
import { notFound } from "../../core/errors.ts";
import { etagMatches } from "../routes/pull.ts";
import { DOCS_CSP, DOCS_PATH, docsFiles, SPEC_PATH } from "./docs-page.ts";
import { buildDocument } from "./document.ts";

/**
 * `GET /api/v1/openapi.json` and the docs page with its files, without authentication (CONTRACT
 * §1); the rate-limit headers come from the app's request hook like every /api/v1 answer.
 * `basePath` is where a host mounted the API (ServerOptions.basePath).
 */
export function openApiRoutes(basePath = "") {
  const plugin = new Elysia({ name: "openapi" });
  const files = docsFiles(basePath);
  let document: ReturnType<typeof buildDocument> | undefined;
  const serve = (
    name: string,
    request: Request,
    set: { headers: Record<string, unknown>; status?: number | string },
  ) => {
    const file = files.get(name);
    if (!file) return undefined;
    set.headers.etag = file.etag;
    set.headers["cache-control"] = "no-cache";
    if (name === "") set.headers["content-security-policy"] = DOCS_CSP;
    if (etagMatches(request.headers.get("if-none-match"), file.etag)) {
      return new Response(null, { status: 304, headers: set.headers as Record<string, string> });
    }
    set.headers["content-type"] = file.contentType;
    return file.body;
  };
  const hide = { detail: { hide: true } };
  return plugin
    .get(
      SPEC_PATH,
      () => {
        // The routes are all registered once the app serves: the document is built once, on demand.
        document ??= buildDocument(plugin, basePath);
        return document;
      },
      hide,
    )
    .get(DOCS_PATH, ({ request, set }) => serve("", request, set), hide)
    .get(
      `${DOCS_PATH}/:file`,
      ({ request, set, params }) => {
        const answer = serve(params.file, request, set);
        if (answer === undefined) throw notFound(`No route GET ${DOCS_PATH}/${params.file}`);
        return answer;
      },
      hide,
    );
}

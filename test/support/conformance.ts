import type { ParlanceServer } from "../../server/app.ts";
import { buildDocument } from "../../server/openapi/document.ts";
import { type Conformance, createConformance } from "./openapi-conformance.ts";

/** One document per process: every test server is built from the same routes. */
let conformance: Conformance | undefined;

/**
 * Fails the calling test when `response` does not match the OpenAPI document (the harness calls
 * it for every request an HTTP suite sends), naming the request, the operation and each mismatch.
 */
export async function expectConformance(app: ParlanceServer, request: Request, response: Response) {
  conformance ??= createConformance(buildDocument(app));
  const problems = await conformance.check(request, response);
  if (problems.length > 0) {
    throw new Error(`The answer does not match the OpenAPI document:\n  ${problems.join("\n  ")}`);
  }
}

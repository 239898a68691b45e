import type { TSchema } from "@sinclair/typebox";
import type { DocumentDecoration } from "elysia";
import type { Scope } from "../../core/index.ts";
import type { HeaderName } from "./headers.ts";

/** The document's tags, in the order a reader meets them. */
export const TAGS = [
  { name: "Account", description: "Check a credential, and exchange an API key for an access token." },
  { name: "Projects", description: "The organization's projects, created by the operator." },
  {
    name: "Translations",
    description: "Push JSON files in, pull files out (JSON, CSV, XLIFF, Android XML, YAML), list rows.",
  },
  { name: "Jobs", description: "Background import jobs started by a push." },
  { name: "Coverage", description: "How much of the base language each locale has translated." },
  { name: "API keys", description: "The organization's API keys (scope admin)." },
  { name: "Operations", description: "For the operator's monitoring; outside /api/v1." },
] as const;

export type TagName = (typeof TAGS)[number]["name"];

/** Instructions for server/openapi/document.ts, carried in `detail` and removed from the document. */
export const FINISH = "x-parlance-finish";

export interface FinishInstructions {
  /** No credential at all (the token endpoint, /healthz). */
  public: boolean;
  /** The operation reads a request body (it can answer 413 and 415). */
  hasBody: boolean;
  /** Response headers the operation adds, per status; `true`: always sent. */
  headers: Record<number, Partial<Record<HeaderName, boolean>>>;
  /** The request body, documented here instead of from the route's body schema. */
  requestBody?: { schema: TSchema; mediaTypes: string[]; description: string };
  /** Names the route's own request body schema as a component. */
  requestBodyName?: string;
}

export interface OperationDoc {
  id: string;
  summary: string;
  description?: string;
  tag: TagName;
  /** The scope the credential needs; `null`: any valid credential; `"public"`: none at all. */
  scope: Scope | null | "public";
  deprecated?: boolean;
  hasBody?: boolean;
  headers?: FinishInstructions["headers"];
  requestBody?: FinishInstructions["requestBody"];
  requestBodyName?: string;
}

function scopeSentence(scope: OperationDoc["scope"]): string {
  if (scope === "public") return "No credential needed.";
  if (scope === null) return "Any valid API key or access token; no scope needed.";
  return `Required scope: \`${scope}\`.`;
}

/**
 * A route's `detail`: what the document says about the operation. The scope is stated three ways
 * (docs/api.md): in the description, in `x-required-scope`, and as the bearer requirement's role.
 */
export function operation(doc: OperationDoc): DocumentDecoration {
  const finish: FinishInstructions = {
    public: doc.scope === "public",
    hasBody: doc.hasBody ?? false,
    headers: doc.headers ?? {},
    requestBody: doc.requestBody,
    requestBodyName: doc.requestBodyName,
  };
  const detail: DocumentDecoration & Record<string, unknown> = {
    operationId: doc.id,
    summary: doc.summary,
    description: [doc.description, scopeSentence(doc.scope)].filter(Boolean).join("\n\n"),
    tags: [doc.tag],
    deprecated: doc.deprecated ?? false,
    security: doc.scope === "public" ? [] : [{ bearer: doc.scope === null ? [] : [doc.scope] }],
    "x-required-scope": doc.scope === "public" ? null : doc.scope,
    [FINISH]: finish,
  };
  return detail;
}

/** The document's front matter: what a reader sees before the first operation. */

export const INFO = {
  title: "Parlance API",
  version: "1.0.0",
  summary: "Self-hostable translation management: push, pull and watch coverage of localized strings.",
  contact: { name: "Parlance maintainers" },
  // No licence has been chosen for Parlance yet (docs/decisions.md): say so rather than guess one.
  license: { name: "Proprietary: no licence granted yet", identifier: "LicenseRef-Parlance-Proprietary" },
};

/**
 * Relative: the paths are served by whichever server answered this document, under the path a host
 * mounted the API at ("/" at the root), so the viewer's "Try it out" reaches this API.
 */
export const servers = (basePath: string) => [{ url: basePath || "/", description: "This Parlance server" }];

export const API_DESCRIPTION = `Teams push localized strings from CI, pull translated files back and watch coverage per
language. Request and response bodies are JSON, except exports, which come in the format asked for.

## Authentication

Send \`Authorization: Bearer <credential>\`, where the credential is an API key (\`pl_\` followed by
64 hexadecimal characters) or an access token from \`POST /api/v1/auth/token\` (OAuth 2.0 client
credentials, the API key as \`client_secret\`). A missing or invalid credential answers 401, a
credential without the operation's scope 403.

## Scopes

Each operation names the scope it needs in its description, in \`x-required-scope\` (null: any valid
credential) and as the role of its bearer requirement. Scopes are checked literally: \`admin\`
implies no other scope.

| Scope | Allows |
|---|---|
| \`translations:read\` | list projects, read translations, poll import jobs, read coverage |
| \`translations:write\` | push (import) translation files |
| \`export:read\` | pull (export) translation files |
| \`admin\` | list and create the organization's API keys |

## Rate limits

Every answer under \`/api/v1\` carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\`: the key's hourly window, or without valid credentials the client address's.
A 429 also carries \`Retry-After\`.

## Errors

Every error answer is the Error object \`{"error", "timestamp", "details"?}\` (\`details\` in
development mode only); the token endpoint answers OAuth errors (RFC 6749 §5.2) instead.`;

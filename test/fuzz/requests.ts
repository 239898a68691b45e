/**
 * fast-check arbitraries of hostile requests to every endpoint: parameters, headers and bodies
 * (deep nesting, huge strings, prototype keys at every level, unicode edge cases and control
 * characters, numbers out of range, wrong JSON types, SQL-looking text, duplicate names, wrong
 * media types, a query parameter given twice). Used by test/http/fuzz.test.ts (short run) and `bun run fuzz` (long run).
 */
import fc from "fast-check";

/** What a generated request may refer to: the seeded world's real ids and credentials. */
export interface Targets {
  projectId: string;
  jobId: string;
  translationId: string;
  key: string;
  token: string;
  otherOrgKey: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const NASTY = [
  "",
  " ",
  "0",
  "-0",
  "1e20",
  "0x10",
  "5.0",
  "99999999999999999999",
  "9223372036854775807",
  "-1",
  "NaN",
  "Infinity",
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "' OR 1=1 --",
  "'; DROP TABLE translations; --",
  '" OR ""="',
  "%00",
  "\u0000",
  "\u0007",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u2028",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\ud800",
  "\udc00",
  "\ud83d\ude00",
  "e\u0301",
  "\u202e",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  `${"$"}{jndi:ldap://x}`,
  "en",
  "fr",
  "EN",
  "pt-BR",
  "zh-Hant-TW",
  "x".repeat(2000),
  "json",
  "csv",
  "xliff",
  "yaml",
  "xml",
  "2099-02-30T00:00:00Z",
  "2099-01-01T00:00:00Z",
  "merge",
  "replace",
  "approved",
  "admin",
  "translations:read",
];

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom("\u0000", "\ud800", "a", ".", "\\", '"', "\u001f"),
      maxLength: 12,
    }),
  },
);

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** JSON values with prototype names at any level, deep nesting and out-of-range numbers. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyString), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Text that JSON.stringify cannot produce: duplicates, depth bombs, numbers out of range, broken syntax. */
const rawJsonText = fc.oneof(
  fc.constantFrom(
    '{"a":1,"a":2}',
    '{"__proto__":{"scopes":["admin"]},"name":"x"}',
    '{"name":"x","scopes":["admin"],"__proto__":{"rateLimit":1}}',
    '{"content":"{}","language":"fr","projectId":"x","projectId":"y"}',
    "1e400",
    '{"rateLimit":1e400}',
    "[".repeat(5000),
    `${"[".repeat(3000)}${"]".repeat(3000)}`,
    `${'{"a":'.repeat(2000)}1${"}".repeat(2000)}`,
    "{",
    "",
    "null",
    '"\\ud800"',
    '{"content":"\\u0000"}',
    "\ufeff{}",
  ),
  fc.string({ maxLength: 200 }),
);

const PARAMS = [
  "project_id",
  "language",
  "format",
  "environment",
  "selected_ids",
  "bom",
  "xliff_version",
  "limit",
  "offset",
];

const query = (t: Targets) =>
  fc.dictionary(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PARAMS) }, { weight: 1, arbitrary: nastyString }),
    fc.oneof(
      nastyString,
      fc.constant(t.projectId),
      fc.constant(JSON.stringify([t.translationId])),
      fc.nat().map(String),
    ),
    { maxKeys: 5 },
  );

/** Percent-encoding that also writes a lone surrogate, as the invalid UTF-8 bytes ED A0 80. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const encode = (s: string) =>
  s
    .split(LONE)
    .map((part) => encodeURIComponent(part))
    .join("%ED%A0%80");

/** `repeat`: the first parameter is given a second time (400 on every operation needing a credential). */
const encodeQuery = (q: Record<string, string>, repeat: boolean) => {
  const parts = Object.entries(q).map(([k, v]) => `${encode(k)}=${encode(v)}`);
  if (repeat && parts[0] !== undefined) parts.push(parts[0]);
  return parts.length ? `?${parts.join("&")}` : "";
};

/** A body field set for push or api-keys, each field valid, missing, or replaced by anything. */
const mutated = (fields: Record<string, unknown>) =>
  fc
    .record(
      Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [
          k,
          fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: hostileJson }),
        ]),
      ),
      { requiredKeys: [] },
    )
    .chain((base) =>
      fc
        .dictionary(fc.constantFrom(...PROTO_KEYS), hostileJson, { maxKeys: 2 })
        .map((extra) => JSON.stringify({ ...base, ...extra }).replace(/^\{\}$/, "{}")),
    );

const pushBody = (t: Targets) =>
  mutated({
    projectId: t.projectId,
    language: "fr",
    content: JSON.stringify({ greeting: "bonjour", nested: { a: "b" } }),
    dryRun: true,
    importMode: "merge",
    status: "approved",
    format: "json",
  });

const keyBody = () =>
  mutated({ name: "fuzz", scopes: ["translations:read"], rateLimit: 10, expiresAt: "2099-01-01T00:00:00Z" });

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "application/x-www-form-urlencoded",
      "text/plain",
      "application/xml",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
      "application/vnd.api+json",
      "APPLICATION/JSON",
      "",
      "*/*",
      "application/octet-stream",
    ),
  },
);

const authorization = (t: Targets) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${t.key}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `Bearer ${t.token}`,
        `bearer ${t.key}`,
        `Bearer ${t.otherOrgKey}`,
        `Bearer ${t.key}x`,
        "Bearer pl_",
        "Bearer",
        `Basic ${btoa(`x:${t.key}`)}`,
        "Basic %%%",
        "",
        `Bearer ${"a".repeat(5000)}`,
      ),
    },
  );

/** Header values a Request can carry: visible ASCII and spaces (anything else is refused by fetch). */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    "if-none-match",
    "x-forwarded-for",
    "accept",
    "content-length",
    "x-custom",
    "origin",
    "cookie",
  ),
  headerValue,
  { maxKeys: 2 },
);

const body = (t: Targets, kind: "push" | "key" | "token" | "any") => {
  const specific = kind === "push" ? pushBody(t) : kind === "key" ? keyBody() : tokenBody(t);
  return fc.oneof(
    { weight: 5, arbitrary: specific },
    { weight: 2, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? "null") },
    { weight: 2, arbitrary: rawJsonText },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    {
      weight: 1,
      arbitrary: fc.constant(
        JSON.stringify({ content: "x".repeat(100_000), language: "fr", projectId: t.projectId }),
      ),
    },
  );
};

const tokenBody = (t: Targets) =>
  fc.oneof(
    fc
      .array(
        fc.tuple(
          fc.constantFrom("grant_type", "client_secret", "client_id", "scope", "__proto__"),
          fc.oneof(fc.constantFrom("client_credentials", t.key, "admin", "translations:read"), nastyString),
        ),
        { maxLength: 5 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
    fc.constant(`grant_type=client_credentials&client_secret=${t.key}`),
  );

interface Endpoint {
  method: string;
  path: (t: Targets) => fc.Arbitrary<string>;
  body?: "push" | "key" | "token";
}

const fixed = (p: string) => () => fc.constant(p);
const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: fixed("/api/v1/test") },
  { method: "GET", path: fixed("/api/v1/project") },
  { method: "GET", path: fixed("/api/v1/projects") },
  { method: "GET", path: fixed("/api/v1/pull") },
  { method: "GET", path: fixed("/api/v1/export") },
  { method: "GET", path: fixed("/api/v1/coverage") },
  { method: "GET", path: fixed("/api/v1/translations") },
  { method: "GET", path: fixed("/api/v1/api-keys") },
  {
    method: "GET",
    path: (t) =>
      fc.oneof(fc.constant(t.jobId), nastyString.map(encode), fc.uuid()).map((id) => `/api/v1/jobs/${id}`),
  },
  { method: "POST", path: fixed("/api/v1/push"), body: "push" },
  { method: "POST", path: fixed("/api/v1/import"), body: "push" },
  { method: "POST", path: fixed("/api/v1/api-keys"), body: "key" },
  { method: "POST", path: fixed("/api/v1/auth/token"), body: "token" },
  { method: "GET", path: fixed("/api/v1/openapi.json") },
  { method: "GET", path: fixed("/healthz") },
  { method: "DELETE", path: fixed("/api/v1/projects") },
  { method: "PUT", path: fixed("/api/v1/push"), body: "push" },
  { method: "GET", path: () => nastyString.map((s) => `/api/v1/${encode(s)}`) },
];

/** One hostile request to one of the endpoints. */
export function fuzzRequest(t: Targets): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...ENDPOINTS).chain((endpoint) =>
    fc
      .record({
        path: endpoint.path(t),
        query: query(t),
        authorization: authorization(t),
        contentType:
          endpoint.body === "token"
            ? fc.oneof(fc.constant("application/x-www-form-urlencoded"), contentType)
            : contentType,
        extra: extraHeaders,
        body: endpoint.body ? body(t, endpoint.body) : fc.constant(undefined),
        repeat: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
      })
      .map(({ path, query: q, authorization: auth, contentType: type, extra, body: b, repeat }) => {
        const headers: Record<string, string> = { ...extra };
        if (auth !== "" && !(endpoint.body === "token" && auth.startsWith("Bearer")))
          headers.authorization = auth;
        if (b !== undefined && type !== "") headers["content-type"] = type;
        // A declared length that disagrees with the body would be the client's lie to the socket, not ours.
        delete headers["content-length"];
        return { method: endpoint.method, path: `${path}${encodeQuery(q, repeat)}`, headers, body: b };
      }),
  );
}

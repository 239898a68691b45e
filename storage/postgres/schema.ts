/**
 * The Postgres schema as versioned migrations, applied in order and never edited once released:
 * a change is a new entry. Decisions that hold across the tables:
 * - Sorted text (names, keys, ids) uses COLLATE "C": byte order of UTF-8 is code-point order.
 * - Dates are timestamptz; every read converts them back to `toISOString()` form.
 * - Translation and override keys may be 1,000 code points (up to 4,000 bytes), past the 2,704-byte
 *   limit of a btree entry, so their uniqueness is enforced on a digest of the key rather than on
 *   the key: md5 in migration 1, SHA-256 (`parlance_key_digest`) since migration 3, because two
 *   printable keys with one md5 exist and the second overwrote the first.
 * - Foreign keys as in the SQLite schema, so both adapters refuse the same orphans.
 */
import type { Migration } from "../migrations.ts";

const initial = `
CREATE TABLE organizations (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  max_translations bigint,
  created_at timestamptz NOT NULL
);

CREATE TABLE projects (
  id text COLLATE "C" PRIMARY KEY,
  org_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  name text COLLATE "C" NOT NULL,
  base_language text COLLATE "C" NOT NULL,
  languages text[] NOT NULL,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX projects_org ON projects (org_id, name, id);

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  org_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  hash text NOT NULL,
  prefix text NOT NULL,
  scopes text[] NOT NULL,
  rate_limit integer NOT NULL,
  usage_count bigint NOT NULL DEFAULT 0,
  active boolean NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  CONSTRAINT api_keys_org_name_unique UNIQUE (org_id, name),
  CONSTRAINT api_keys_hash_unique UNIQUE (hash)
);
CREATE INDEX api_keys_org_newest ON api_keys (org_id, created_at DESC, id DESC);

CREATE TABLE access_tokens (
  hash text PRIMARY KEY,
  key_id text COLLATE "C" NOT NULL REFERENCES api_keys (id),
  scopes text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);

CREATE TABLE translations (
  id text COLLATE "C" PRIMARY KEY,
  project_id text COLLATE "C" NOT NULL REFERENCES projects (id),
  language text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value text NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'pending', 'approved', 'needs_review')),
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX translations_identity ON translations (project_id, language, md5(key));

-- seq is the order of acceptance: claims and the per-project ordering rule follow it.
CREATE TABLE jobs (
  seq bigserial NOT NULL UNIQUE,
  id text COLLATE "C" PRIMARY KEY,
  org_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  project_id text COLLATE "C" NOT NULL REFERENCES projects (id),
  type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  run_id text NOT NULL,
  summary text NOT NULL,
  error_message text,
  payload text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_unfinished ON jobs (seq) WHERE status IN ('pending', 'running');
CREATE INDEX jobs_project_unfinished ON jobs (project_id, seq) WHERE status IN ('pending', 'running');

CREATE TABLE environment_overrides (
  project_id text COLLATE "C" NOT NULL REFERENCES projects (id),
  environment text COLLATE "C" NOT NULL,
  language text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value text NOT NULL
);
CREATE UNIQUE INDEX environment_overrides_identity
  ON environment_overrides (project_id, environment, language, md5(key));

-- Windows of a single-instance limiter, written back at shutdown (RateWindowStore).
CREATE TABLE rate_windows (
  bucket text PRIMARY KEY,
  count integer NOT NULL,
  reset_at bigint NOT NULL
);

-- Live windows of the shared limiter (adapters/postgres-rate-limiter.ts), one row per bucket.
CREATE TABLE rate_limits (
  bucket text PRIMARY KEY,
  count integer NOT NULL,
  reset_at bigint NOT NULL,
  allowed boolean NOT NULL
);
`;

// The digest of a key, for unique indexes. convert_to is only STABLE because it depends on the
// database's encoding, which never changes for a database: declaring the wrapper IMMUTABLE (as an
// index needs) is true here. The old md5 indexes are replaced; the rows stay as they are (keys that
// were unique under md5 are unique under SHA-256 too).
const hardening = `
CREATE FUNCTION parlance_key_digest(key text) RETURNS bytea
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT sha256(convert_to(key, 'UTF8')) $$;

CREATE UNIQUE INDEX translations_key ON translations (project_id, language, parlance_key_digest(key));
DROP INDEX translations_identity;
CREATE UNIQUE INDEX environment_overrides_key
  ON environment_overrides (project_id, environment, language, parlance_key_digest(key));
DROP INDEX environment_overrides_identity;

-- How many times the job was claimed: a job that kills its process each time is failed after a few.
ALTER TABLE jobs ADD COLUMN attempts integer NOT NULL DEFAULT 0;

-- Ended windows of the shared limiter are deleted by reset_at.
CREATE INDEX rate_limits_reset ON rate_limits (reset_at);
`;

// Keys may pass a btree entry's limit, so no index leads with the key: browsing reads a language's
// rows through translations_key (translations_identity before migration 3) and sorts them (SQLite, which has no such limit, walks an index).
const records = `
ALTER TABLE translations ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE translations ADD COLUMN warnings text; -- JSON array; NULL when there is none
ALTER TABLE translations ADD COLUMN updated_by text; -- JSON actor; NULL before history existed
ALTER TABLE translations ADD COLUMN updated_by_user text COLLATE "C"; -- the user id when a person changed it last
ALTER TABLE translations ADD COLUMN search text; -- folded key U+0001 folded value (core/records/fold.ts)
UPDATE translations SET search = lower(key) || chr(1) || lower(value);

CREATE TABLE record_history (
  seq bigserial PRIMARY KEY,
  project_id text COLLATE "C" NOT NULL,
  record_id text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  language text COLLATE "C" NOT NULL,
  event_id text NOT NULL,
  action text NOT NULL,
  actor text NOT NULL,
  job_id text,
  at timestamptz NOT NULL,
  old_value text,
  old_status text,
  new_value text,
  new_status text,
  version integer
);
CREATE INDEX record_history_record ON record_history (record_id, seq);

CREATE TABLE activity (
  seq bigserial PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  project_id text COLLATE "C" NOT NULL,
  action text NOT NULL,
  actor text NOT NULL,
  job_id text,
  language text,
  key text COLLATE "C",
  detail text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX activity_project ON activity (project_id, seq);

CREATE TABLE deleted_records (
  id text COLLATE "C" PRIMARY KEY,
  project_id text COLLATE "C" NOT NULL,
  language text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value text NOT NULL,
  status text NOT NULL,
  version integer NOT NULL,
  warnings text,
  updated_at timestamptz NOT NULL,
  updated_by text,
  deleted_at timestamptz NOT NULL,
  deleted_by text NOT NULL
);
CREATE INDEX deleted_records_key ON deleted_records (project_id, md5(key));
`;

// Browsing's filters and counts read one language's records; like SQLite's translations_browse,
// this index holds every column they test, so the counts are index-only scans and a status or
// warnings filter visits only the rows it keeps. `filled`, `flagged` and the key's digest are
// stored (generated) so the index can carry them: the key itself may pass a btree entry's limit,
// so the missing count compares digests, a page's keys are sorted after the filter, and lists of
// keys are found through translations_key (storage/postgres/records.ts).
const browseIndex = `
ALTER TABLE translations
  ADD COLUMN filled boolean GENERATED ALWAYS AS (value <> '') STORED,
  ADD COLUMN flagged boolean GENERATED ALWAYS AS (warnings IS NOT NULL) STORED,
  ADD COLUMN key_digest bytea GENERATED ALWAYS AS (parlance_key_digest(key)) STORED;
CREATE INDEX translations_browse
  ON translations (project_id, language, status, flagged, filled, updated_at, updated_by_user, key_digest);
`;

// Counting coverage walks every record of a project (500,000 for 50,000 keys in 10 languages). The
// counts are kept with the project's export versions (migration 7) they were counted at: any change
// of the project's records replaces one of them, so kept counts are used only while every version is
// the same (storage/postgres/coverage.ts).
const coverage = `
CREATE TABLE coverage_counts (
  project_id text COLLATE "C" PRIMARY KEY,
  base_language text NOT NULL,
  versions text NOT NULL, -- every language's export version, as counted
  groups text NOT NULL -- JSON [[language, status, records, warnings], …]
);
`;

// Instances cache keys, tokens, projects and organizations (storage/postgres/row-cache.ts) and
// hear of every committed change to those rows on a channel of the schema, whoever wrote them: an
// instance, an operator command or plain SQL. The payload is the table and the row's primary key.
// The shared limiter leases quota in blocks (adapters/postgres-rate-limiter.ts): `granted` is how
// many requests the last statement on the row handed out.
const instanceCaches = `
CREATE FUNCTION parlance_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'parlance_' || md5(TG_TABLE_SCHEMA),
    TG_TABLE_NAME || ':' || (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0]));
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE PROCEDURE parlance_notify_change('id');
CREATE TRIGGER access_tokens_changed AFTER UPDATE OR DELETE ON access_tokens
  FOR EACH ROW EXECUTE PROCEDURE parlance_notify_change('hash');
CREATE TRIGGER projects_changed AFTER UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE PROCEDURE parlance_notify_change('id');
CREATE TRIGGER organizations_changed AFTER UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE PROCEDURE parlance_notify_change('id');

ALTER TABLE rate_limits ADD COLUMN granted integer NOT NULL DEFAULT 0;
`;

export const postgresMigrations: readonly Migration[] = [
  { version: 1, name: "initial", sql: initial },
  // The push's raw content no longer travels inside the payload's JSON (stringified and parsed
  // back, up to 12 MiB); `payload` keeps the small parameters.
  {
    version: 2,
    name: "job content in a column of its own",
    sql: "ALTER TABLE jobs ADD COLUMN content text;",
  },
  { version: 3, name: "collision-free key index, job attempts, rate window expiry", sql: hardening },
  {
    version: 4,
    name: "people: users, memberships, sessions, one-time tokens",
    sql: `
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  email_lower text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  org_id text NOT NULL REFERENCES organizations(id),
  user_id text NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'reviewer', 'translator')),
  languages text[], -- NULL means every language
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id, org_id);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  idle_expires_at timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL,
  user_agent text
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE one_time_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('setup', 'invitation', 'reset')),
  org_id text,
  email text,
  role text,
  languages text[], -- NULL means every language
  user_id text,
  created_by text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX one_time_tokens_org ON one_time_tokens (org_id, kind);
`,
  },
  {
    version: 5,
    name: "records: versions, warnings, authors, history, activity, deleted keys",
    sql: records,
  },
  {
    version: 6,
    name: "search text stored only for non-ASCII records",
    // A record whose key and value are plain ASCII stores NULL: its folded text is
    // lower(key) || chr(1) || lower(value), which the search computes (storedSearchText). Rows
    // whose stored text equals that lose it here, which changes no search's answer.
    sql: "UPDATE translations SET search = NULL WHERE search = lower(key) || chr(1) || lower(value);",
  },
  {
    version: 7,
    name: "export versions",
    // One row per language ever written: a random tag replaced in the same transaction as any change
    // of that language's rows or environment overrides (storage/postgres/export-versions.ts). Pull's
    // ETag comes from it, so a conditional GET reads no translation. No row: nothing written since.
    sql: `
CREATE TABLE export_versions (
  project_id text NOT NULL,
  language text NOT NULL,
  tag text NOT NULL,
  PRIMARY KEY (project_id, language)
);
`,
  },
  { version: 8, name: "browse index: filters and counts read one index", sql: browseIndex },
  { version: 9, name: "coverage counted once per change of a project", sql: coverage },
  {
    version: 10,
    name: "change notifications for instance caches, leased rate-limit quota",
    sql: instanceCaches,
  },
  {
    version: 12,
    name: "job content stored uncompressed",
    // A push's 12 MB content was compressed (pglz) when its job was stored and decompressed when it
    // was claimed, on the database's CPU, for a value that lives from the 202 to the job's end:
    // storing it out of line uncompressed halved the insert in a measurement (docs/benchmarks.md).
    // Existing values keep their form until rewritten; the column's type is unchanged.
    sql: "ALTER TABLE jobs ALTER COLUMN content SET STORAGE EXTERNAL;",
  },
];

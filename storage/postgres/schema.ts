/**
 * The Postgres schema as versioned migrations, applied in order and never edited once released:
 * a change is a new entry. Decisions that hold across the tables:
 * - Sorted text (names, keys, ids) uses COLLATE "C": byte order of UTF-8 is code-point order.
 * - Dates are timestamptz; every read converts them back to `toISOString()` form.
 * - Translation and override keys may be 1,000 code points (up to 4,000 bytes), past the 2,704-byte
 *   limit of a btree entry, so their uniqueness is enforced on md5(key) rather than on the key.
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

export const postgresMigrations: readonly Migration[] = [
  { version: 1, name: "initial", sql: initial },
  // The push's raw content no longer travels inside the payload's JSON (stringified and parsed
  // back, up to 12 MiB); `payload` keeps the small parameters.
  {
    version: 2,
    name: "job content in a column of its own",
    sql: "ALTER TABLE jobs ADD COLUMN content text;",
  },
];

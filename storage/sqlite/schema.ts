import type { Migration } from "../migrations.ts";

/**
 * The SQLite schema, as an append-only list: a released migration is never edited, a change is a
 * new entry. Dates are ISO-8601 TEXT (they sort chronologically as text); TEXT compares with the
 * BINARY collation, i.e. UTF-8 byte order, which is code-point order.
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sql: `
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  max_translations INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  base_language TEXT NOT NULL,
  languages TEXT NOT NULL, -- JSON array, in the order the languages were added
  deleted_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX projects_org ON projects(org_id, name, id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scopes TEXT NOT NULL, -- JSON array
  rate_limit INTEGER NOT NULL,
  usage_count INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL,
  expires_at TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  UNIQUE (org_id, name)
);
CREATE INDEX api_keys_org_newest ON api_keys(org_id, created_at DESC, id DESC);

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  scopes TEXT NOT NULL, -- JSON array
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX tokens_expiry ON tokens(expires_at);

CREATE TABLE translations (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id),
  language TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'pending', 'approved', 'needs_review')),
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, language, key)
);

-- seq is the rowid: the order of creation, which claiming follows.
CREATE TABLE jobs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  run_id TEXT NOT NULL,
  summary TEXT NOT NULL, -- JSON object
  error_message TEXT,
  payload TEXT, -- JSON object; up to the push limit (12 MiB of content)
  lease_until TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Unfinished jobs are few while finished ones pile up: claiming reads only these two indexes.
CREATE INDEX jobs_open ON jobs(seq) WHERE status IN ('pending', 'running');
CREATE INDEX jobs_open_by_project ON jobs(project_id, seq) WHERE status IN ('pending', 'running');

CREATE TABLE environment_overrides (
  project_id TEXT NOT NULL REFERENCES projects(id),
  environment TEXT NOT NULL,
  language TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (project_id, environment, language, key)
);

CREATE TABLE rate_windows (
  bucket TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL -- epoch milliseconds
);
`,
  },
  {
    version: 2,
    name: "job content in a column of its own",
    // The push's raw content no longer travels inside the payload's JSON, where writing and reading
    // it back meant stringifying and parsing up to 12 MiB; `payload` keeps the small parameters.
    sql: "ALTER TABLE jobs ADD COLUMN content TEXT;",
  },
];

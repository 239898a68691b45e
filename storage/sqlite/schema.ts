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
  {
    version: 3,
    name: "job attempts",
    // How many times the job was claimed: a job that kills its process each time is failed after a few.
    sql: "ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;",
  },
  {
    version: 4,
    name: "people: users, memberships, sessions, one-time tokens",
    sql: `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  email_lower TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE memberships (
  org_id TEXT NOT NULL REFERENCES organizations(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'reviewer', 'translator')),
  languages TEXT, -- JSON array; NULL means every language
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships(user_id, org_id);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  idle_expires_at TEXT NOT NULL,
  absolute_expires_at TEXT NOT NULL,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE one_time_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('setup', 'invitation', 'reset')),
  org_id TEXT,
  email TEXT,
  role TEXT,
  languages TEXT, -- JSON array; NULL means every language
  user_id TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX one_time_tokens_org ON one_time_tokens(org_id, kind);
`,
  },
  {
    version: 5,
    name: "records: versions, warnings, authors, history, activity, deleted keys",
    sql: `
ALTER TABLE translations ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE translations ADD COLUMN warnings TEXT; -- JSON array; NULL when there is none
ALTER TABLE translations ADD COLUMN updated_by TEXT; -- JSON actor; NULL before history existed
ALTER TABLE translations ADD COLUMN updated_by_user TEXT; -- the user id when a person changed it last
ALTER TABLE translations ADD COLUMN search TEXT; -- folded key U+0001 folded value (core/records/fold.ts)
UPDATE translations SET search = lower(key) || char(1) || lower(value);
-- value <> '' and warnings IS NOT NULL, written with them: an index covers stored columns only.
ALTER TABLE translations ADD COLUMN filled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE translations ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;
UPDATE translations SET filled = 0 WHERE value = '';
-- Browsing reads only this index (rows are wide: value, warnings, author): every filter, count and
-- text search of a language walks it in key order, and probes of another language's record by key
-- find what they need in it too.
CREATE INDEX translations_browse
  ON translations(project_id, language, key, status, flagged, filled, updated_at, updated_by_user, search);

-- An entry's id is its seq: a push writes 50,000 of them, and a second unique index of random ids
-- would cost the push more than the entries themselves.
CREATE TABLE record_history (
  seq INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  record_id TEXT NOT NULL,
  key TEXT NOT NULL,
  language TEXT NOT NULL,
  event_id TEXT NOT NULL,
  action TEXT NOT NULL,
  actor TEXT NOT NULL, -- JSON
  job_id TEXT,
  at TEXT NOT NULL,
  old_value TEXT,
  old_status TEXT,
  new_value TEXT,
  new_status TEXT,
  version INTEGER
);
CREATE INDEX record_history_record ON record_history(record_id, seq);

CREATE TABLE activity (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  project_id TEXT NOT NULL,
  action TEXT NOT NULL,
  actor TEXT NOT NULL, -- JSON
  job_id TEXT,
  language TEXT,
  key TEXT,
  detail TEXT NOT NULL, -- JSON object
  at TEXT NOT NULL
);
CREATE INDEX activity_project ON activity(project_id, seq);

-- Soft-deleted keys: their rows move here whole (id, version and all), so every reader of
-- translations stays as it was and a push may create the key again meanwhile.
CREATE TABLE deleted_records (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  language TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  status TEXT NOT NULL,
  version INTEGER NOT NULL,
  warnings TEXT,
  updated_at TEXT NOT NULL,
  updated_by TEXT,
  deleted_at TEXT NOT NULL,
  deleted_by TEXT NOT NULL -- JSON actor
);
CREATE INDEX deleted_records_key ON deleted_records(project_id, key);
`,
  },
  {
    version: 6,
    name: "search text out of the browse index, stored only for non-ASCII records",
    // The folded search text made the covering index as wide as the rows and doubled what a push
    // wrote. Browsing's filters and counts never read it; a text search reads the rows instead,
    // once per browse (remembered until the database changes). A record whose key and value are
    // plain ASCII stores NULL: its folded text is lower(key) || char(1) || lower(value), which the
    // search computes (core/records/fold.ts storedSearchText). Rows whose stored text equals that
    // lose it here, which changes no search's answer.
    sql: `
DROP INDEX translations_browse;
CREATE INDEX translations_browse
  ON translations(project_id, language, key, status, flagged, filled, updated_at, updated_by_user);
UPDATE translations SET search = NULL WHERE search = lower(key) || char(1) || lower(value);
`,
  },
  {
    version: 7,
    name: "export versions",
    // One row per language ever written: a random tag replaced in the same transaction as any change
    // of that language's rows or environment overrides (storage/sqlite/export-versions.ts). Pull's
    // ETag comes from it, so a conditional GET reads no translation. No row: nothing written since.
    sql: `
CREATE TABLE export_versions (
  project_id TEXT NOT NULL,
  language TEXT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (project_id, language)
) WITHOUT ROWID;
`,
  },
  {
    version: 9,
    name: "coverage counted once per change of a project",
    // Counting coverage walks every record of a project (500,000 for 50,000 keys in 10 languages:
    // seconds). The counts are kept with the project's export versions (migration 7) they were
    // counted at: any change of the project's records replaces one of them, so kept counts are used
    // only while every version is the same (storage/sqlite/coverage.ts).
    sql: `
CREATE TABLE coverage_counts (
  project_id TEXT PRIMARY KEY,
  base_language TEXT NOT NULL,
  versions TEXT NOT NULL, -- every language's export version, as counted
  groups TEXT NOT NULL -- JSON [[language, status, records, warnings], …]
) WITHOUT ROWID;
`,
  },
  {
    version: 11,
    name: "job content in parts of its own table",
    // In the jobs row, every claim, lease renewal and completion rewrote the push's content (SQLite
    // rewrites a whole row), and writing or reading it bound one 12 MiB value. Parts of 1 MiB keep
    // each statement's copy small; the row of the job is small again.
    sql: `
CREATE TABLE job_content_parts (
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  part INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (job_id, part)
);
INSERT INTO job_content_parts (job_id, part, bytes)
  SELECT id, 0, CAST(content AS BLOB) FROM jobs WHERE content IS NOT NULL;
UPDATE jobs SET content = NULL WHERE content IS NOT NULL;
`,
  },
  {
    version: 13,
    name: "history found through a chain per record, not an index of random record ids",
    // record_history_record took one entry per history entry at a random place (record ids are
    // random UUIDs): a 50,000-row rewrite dirtied nearly every leaf of it, a number of pages that
    // grew with history (13,800 of 31,000 log frames at the 20th rewrite of a language) and that the
    // import's COMMIT re-signs on the event loop. Instead a record keeps its last entry's seq and
    // each entry its predecessor's: a history page follows the chain from the record. Entries
    // are then only appended. `history_prev` is where an UPDATE leaves the seq it replaced, for
    // its RETURNING (which sees only new values) to give the entry its predecessor. A record an
    // import deleted (no row left anywhere) keeps its last entry's seq in record_history_gone.
    sql: `
CREATE TABLE record_history_gone (
  record_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL
) WITHOUT ROWID;
ALTER TABLE record_history ADD COLUMN prev_seq INTEGER;
ALTER TABLE translations ADD COLUMN history_seq INTEGER;
ALTER TABLE translations ADD COLUMN history_prev INTEGER;
ALTER TABLE deleted_records ADD COLUMN history_seq INTEGER;
UPDATE record_history SET prev_seq = (SELECT max(h.seq) FROM record_history h
  WHERE h.record_id = record_history.record_id AND h.seq < record_history.seq);
UPDATE translations SET history_seq = (SELECT max(seq) FROM record_history WHERE record_id = translations.id);
UPDATE deleted_records SET history_seq = (SELECT max(seq) FROM record_history WHERE record_id = deleted_records.id);
INSERT INTO record_history_gone (record_id, seq)
  SELECT record_id, max(seq) FROM record_history
  WHERE record_id NOT IN (SELECT id FROM translations) AND record_id NOT IN (SELECT id FROM deleted_records)
  GROUP BY record_id;
DROP INDEX record_history_record;
`,
  },
];

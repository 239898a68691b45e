import type { OneTimeKind, OneTimeToken } from "../../core/people/types.ts";
import type { OneTimeTokenStore } from "../../core/ports.ts";
import type { Role } from "../../core/principal.ts";
import type { Statements } from "./statements.ts";

interface TokenRow {
  id: string;
  token_hash: string;
  kind: string;
  org_id: string | null;
  email: string | null;
  role: string | null;
  languages: string | null;
  user_id: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

const toToken = (r: TokenRow): OneTimeToken => ({
  id: r.id,
  tokenHash: r.token_hash,
  kind: r.kind as OneTimeKind,
  orgId: r.org_id,
  email: r.email,
  role: r.role as Role | null,
  languages: r.languages === null ? null : (JSON.parse(r.languages) as string[]),
  userId: r.user_id,
  createdBy: r.created_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
});

type Params = [
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string,
  string,
  string | null,
];

export function createSqliteOneTimeTokenStore(s: Statements): OneTimeTokenStore {
  const insert = s.prepare<never, Params>(
    `INSERT INTO one_time_tokens (id, token_hash, kind, org_id, email, role, languages, user_id,
       created_by, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byHash = s.prepare<TokenRow, [string]>("SELECT * FROM one_time_tokens WHERE token_hash = ?");
  const byId = s.prepare<TokenRow, [string]>("SELECT * FROM one_time_tokens WHERE id = ?");
  // One statement: the single-use check and the mark cannot be separated by another caller.
  const consume = s.prepare<TokenRow, [string, string, string, string]>(
    `UPDATE one_time_tokens SET used_at = ?
     WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ? RETURNING *`,
  );
  const invitations = s.prepare<TokenRow, [string, string]>(
    `SELECT * FROM one_time_tokens WHERE kind = 'invitation' AND org_id = ? AND used_at IS NULL
     AND expires_at > ? ORDER BY created_at DESC, id DESC`,
  );
  const revoke = s.prepare<never, [string, string]>(
    "UPDATE one_time_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL",
  );
  return {
    async create(t) {
      insert.run(
        t.id,
        t.tokenHash,
        t.kind,
        t.orgId,
        t.email,
        t.role,
        t.languages === null ? null : JSON.stringify(t.languages),
        t.userId,
        t.createdBy,
        t.createdAt,
        t.expiresAt,
        t.usedAt,
      );
    },
    async findByHash(tokenHash) {
      const row = byHash.get(tokenHash);
      return row ? toToken(row) : null;
    },
    async get(id) {
      const row = byId.get(id);
      return row ? toToken(row) : null;
    },
    async consume(tokenHash, kind, now) {
      const row = consume.get(now, tokenHash, kind, now);
      return row ? { ...toToken(row), usedAt: null } : null;
    },
    async listInvitations(orgId, now) {
      return invitations.all(orgId, now).map(toToken);
    },
    async revoke(id, now) {
      return revoke.run(now, id).changes > 0;
    },
  };
}

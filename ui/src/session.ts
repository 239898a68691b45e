/**
 * Who is signed in, and in which organization they are working: two signals the whole UI reads.
 * `me` is undefined while loading, null when signed out.
 */
import { computed, signal } from "@preact/signals";
import { api, apiData, whenUnauthenticated } from "./api.ts";

export type Role = "owner" | "admin" | "developer" | "reviewer" | "translator";

export interface Membership {
  orgId: string;
  orgName: string;
  role: Role;
  /** null: every language. */
  languages: string[] | null;
}

export interface Me {
  id: string;
  email: string;
  name: string;
  memberships: Membership[];
}

export const me = signal<Me | null | undefined>(undefined);

const ORG_KEY = "parlance.org";
const chosenOrg = signal<string | null>(localStorage.getItem(ORG_KEY));

export const membership = computed<Membership | null>(() => {
  const list = me.value?.memberships ?? [];
  return list.find((m) => m.orgId === chosenOrg.value) ?? list[0] ?? null;
});

export function chooseOrg(orgId: string): void {
  localStorage.setItem(ORG_KEY, orgId);
  chosenOrg.value = orgId;
}

/** Reads /me; a 401 means signed out. */
export async function loadMe(): Promise<void> {
  try {
    me.value = normalizeMe(await apiData<unknown>("GET", "/me"));
  } catch {
    me.value = null;
  }
}

export async function signIn(email: string, password: string): Promise<void> {
  await api("POST", "/session", { email, password });
  await loadMe();
}

export async function signOut(): Promise<void> {
  try {
    await api("DELETE", "/session");
  } finally {
    me.value = null;
  }
}

whenUnauthenticated(() => {
  me.value = null;
});

/** The /me answer, tolerant of the user being nested (`{user, memberships}`) or flat. */
function normalizeMe(raw: unknown): Me {
  const body = (raw ?? {}) as Record<string, unknown>;
  const user = (body.user ?? body) as Record<string, unknown>;
  const memberships = ((body.memberships ?? user.memberships ?? []) as Record<string, unknown>[]).map((m) => {
    const org = (m.organization ?? m.org ?? {}) as Record<string, unknown>;
    return {
      orgId: String(m.orgId ?? org.id ?? ""),
      orgName: String(m.orgName ?? org.name ?? ""),
      role: String(m.role) as Role,
      languages: (m.languages as string[] | null | undefined) ?? null,
    };
  });
  return {
    id: String(user.id),
    email: String(user.email),
    name: String(user.name ?? user.email),
    memberships,
  };
}

/** What a role may do, as the workspace API's role table has it (the server decides; this only hides buttons). */
const CAN: Record<string, readonly Role[]> = {
  review: ["owner", "admin", "reviewer"],
  import: ["owner", "admin", "developer"],
  keys: ["owner", "admin", "developer"],
  restoreKeys: ["owner", "admin"],
  members: ["owner", "admin"],
  apiKeys: ["owner", "admin"],
  owners: ["owner"],
};

export function can(action: keyof typeof CAN, language?: string): boolean {
  const m = membership.value;
  if (!m || !CAN[action]?.includes(m.role)) return false;
  return language === undefined || m.languages === null || m.languages.includes(language);
}

/** Whether the person may edit values in a language (every role may, within its languages). */
export function canEdit(language: string): boolean {
  const m = membership.value;
  return !!m && (m.languages === null || m.languages.includes(language));
}

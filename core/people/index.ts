import type { Deps } from "../context.ts";
import type { UserPrincipal } from "../principal.ts";
import type { Project } from "../types.ts";
import {
  acceptInvitation,
  invite,
  listInvitations,
  lookupInvitation,
  revokeInvitation,
} from "./invitations.ts";
import { changePassword, me, updateMe } from "./me.ts";
import { memberOf } from "./member-of.ts";
import { changeMember, listMembers, removeMember } from "./members.ts";
import { createUserAsOperator, inviteAsOperator, resetPasswordAsOperator } from "./operator.ts";
import { completePasswordReset, createPasswordReset } from "./password-resets.ts";
import { createOrgProject, describeProject, inProject, listOrgProjects, updateProject } from "./projects.ts";
import { listSessions, resumeSession, revokeSession, startSession } from "./sessions.ts";
import { completeSetup, createSetupToken, type SetupRequest } from "./setup.ts";
import { createSignIn } from "./sign-in.ts";
import type { User } from "./types.ts";

/**
 * The people side of the workspace: users, sessions, memberships, one-time links. Every function
 * takes what the transport knows (a token, the signed-in user) and returns plain data.
 */
export function createPeople(deps: Deps) {
  return {
    signIn: createSignIn(deps),
    /** The session and user behind a cookie's token; null when none (or expired). */
    resumeSession: (token: string) => resumeSession(deps, token),
    signOut: (sessionId: string, userId: string) => deps.storage.sessions.delete(sessionId, userId),
    listSessions: (userId: string, currentId: string | null) => listSessions(deps, userId, currentId),
    revokeSession: (userId: string, sessionId: string) => revokeSession(deps, userId, sessionId),
    /** Signs a user in without a password (after setup or accepting an invitation). */
    startSession: (userId: string, userAgent: string | null) => startSession(deps, userId, userAgent),
    memberOf: (user: Pick<User, "id" | "name">, orgId: string) => memberOf(deps, user, orgId),
    me: (user: User) => me(deps, user),
    updateMe: (user: User, change: { name?: string; email?: string; currentPassword?: string }) =>
      updateMe(deps, user, change),
    changePassword: (
      user: User,
      keepSessionId: string | null,
      req: { currentPassword: string; newPassword: string },
    ) => changePassword(deps, user, keepSessionId, req),
    /** A setup token while the store has no user (for the first-start link), else null. */
    createSetupToken: () => createSetupToken(deps),
    completeSetup: (req: SetupRequest) => completeSetup(deps, req),
    /** A live project and the user acting in its organization (404 when not theirs). */
    inProject: (user: Pick<User, "id" | "name">, projectId: string) => inProject(deps, user, projectId),
    listProjects: (p: UserPrincipal) => listOrgProjects(deps, p),
    createProject: (p: UserPrincipal, input: Parameters<typeof createOrgProject>[2]) =>
      createOrgProject(deps, p, input),
    describeProject: (p: UserPrincipal, project: Project) => describeProject(p, project),
    updateProject: (p: UserPrincipal, project: Project, change: Parameters<typeof updateProject>[3]) =>
      updateProject(deps, p, project, change),
    listMembers: (p: UserPrincipal) => listMembers(deps, p),
    changeMember: (p: UserPrincipal, userId: string, change: Parameters<typeof changeMember>[3]) =>
      changeMember(deps, p, userId, change),
    removeMember: (p: UserPrincipal, userId: string) => removeMember(deps, p, userId),
    invite: (p: UserPrincipal, input: Parameters<typeof invite>[2]) => invite(deps, p, input),
    listInvitations: (p: UserPrincipal) => listInvitations(deps, p),
    revokeInvitation: (p: UserPrincipal, id: string) => revokeInvitation(deps, p, id),
    lookupInvitation: (secret: string) => lookupInvitation(deps, secret),
    acceptInvitation: (
      secret: string,
      signedIn: User | null,
      account: Parameters<typeof acceptInvitation>[3],
    ) => acceptInvitation(deps, secret, signedIn, account),
    createPasswordReset: (p: UserPrincipal, userId: string) => createPasswordReset(deps, p, userId),
    completePasswordReset: (secret: string, password: string) =>
      completePasswordReset(deps, secret, password),
    /** The operator's command line: `parlance admin user create|invite|reset-password`. */
    operator: {
      createUser: (input: Parameters<typeof createUserAsOperator>[1]) => createUserAsOperator(deps, input),
      invite: (orgId: string, input: Parameters<typeof inviteAsOperator>[2]) =>
        inviteAsOperator(deps, orgId, input),
      resetPassword: (email: string) => resetPasswordAsOperator(deps, email),
    },
    /** Ends expired sessions (the server calls it periodically). */
    purgeSessions: () => deps.storage.sessions.deleteExpired(deps.clock.now().toISOString()),
  };
}

export type People = ReturnType<typeof createPeople>;

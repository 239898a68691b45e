/** Parlance's framework-free core: domain logic and the ports adapters implement. */

export type { Bound } from "./acting-as.ts";
export type { Admission } from "./admission.ts";
export { RATE_WINDOW_MS, retryAfterSeconds } from "./admission.ts";
export type { ApiKeyInfo, NewKey } from "./api-keys.ts";
export { bearerToken } from "./authenticate.ts";
export { ACTIONS, type Action, authorize, isAllowed, rolesFor, scopeFor } from "./authorization.ts";
export {
  type CheckInput,
  checkTranslation,
  MAX_WARNINGS,
  type PlaceholderSyntax,
  WARNING_CODES,
  type Warning,
  type WarningCode,
} from "./checks/index.ts";
export { compareCodePoints } from "./code-point.ts";
export type { CoreDeps, Deps, Settings } from "./context.ts";
export { DEFAULT_SETTINGS } from "./context.ts";
export type { CoverageReport, LocaleCoverage } from "./coverage.ts";
export { type ErrorCode, isParlanceError, PAYLOAD_TOO_LARGE, ParlanceError } from "./errors.ts";
export type { EventBus, EventName, Listener, ParlanceEvents } from "./events.ts";
export { MAX_CONTENT_BYTES, MAX_ROWS, parseContent } from "./flatten.ts";
export type { ExportInput, ExportOptions, ExportRow, Formatter } from "./formats/index.ts";
export { FORMATTERS } from "./formats/index.ts";
export type { Logger } from "./import-runner.ts";
export type { JobView } from "./jobs.ts";
export type { KeyInfo } from "./key-info.ts";
export { isLocale } from "./locale.ts";
export type { OAuthErrorCode, TokenOutcome, TokenRequest } from "./oauth.ts";
export { createParlance, type Parlance, type ParlanceOptions } from "./parlance.ts";
export type { People } from "./people/index.ts";
export type { MembershipView, MeView } from "./people/me.ts";
export { MIN_PASSWORD_LENGTH } from "./people/passwords.ts";
export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, type SessionView } from "./people/sessions.ts";
export { SIGN_IN_LIMITS, SignInThrottled } from "./people/sign-in.ts";
export type * from "./people/types.ts";
export { ONE_TIME_KINDS } from "./people/types.ts";
export type { UserView } from "./people/users.ts";
export type * from "./ports.ts";
export {
  type Actor,
  appPrincipal,
  type KeyPrincipal,
  keyPrincipal,
  operatorPrincipal,
  type Principal,
  ROLES,
  type Role,
  type TrustedPrincipal,
  type UserPrincipal,
} from "./principal.ts";
export type { ProjectView } from "./projects.ts";
export type { PullFile, PullRequest, PullResult } from "./pull.ts";
export type { PushAccepted, PushPreview, PushRequest, PushResult } from "./push.ts";
export {
  type ActivityView,
  type ActorView,
  type HistoryEntryView,
  isStaleRecordError,
  type RecordUseCases,
  type RecordView,
  recordEtag,
  recordView,
  StaleRecordError,
} from "./records/index.ts";
export type * from "./records/types.ts";
export type { TranslationView } from "./translations.ts";
export * from "./types.ts";
export { type Nested, type NestedObject, unflatten } from "./unflatten.ts";

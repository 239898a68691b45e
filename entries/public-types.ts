/** What both the package root and `…/core` export: the types, errors and principals of the core. */
export type {
  ApiKeyInfo,
  Bound,
  CoverageReport,
  ErrorCode,
  EventName,
  JobView,
  Listener,
  LocaleCoverage,
  Logger,
  NewKey,
  Parlance,
  ParlanceEvents,
  ParlanceOptions,
  ProjectView,
  PullFile,
  PullRequest,
  PullResult,
  PushAccepted,
  PushPreview,
  PushRequest,
  PushResult,
  Settings,
  TranslationView,
} from "../core/index.ts";
export {
  type Actor,
  appPrincipal,
  isParlanceError,
  type KeyPrincipal,
  operatorPrincipal,
  ParlanceError,
  type Principal,
  type TrustedPrincipal,
  type UserPrincipal,
} from "../core/index.ts";
export type * from "../core/ports.ts";
export * from "../core/types.ts";

import type { Parlance } from "../../core/index.ts";
import { integerFlag, list, optional, type ParsedArgs, required, UsageError } from "./args.ts";

type Admin = Parlance["admin"];

/** What a command may need besides the store: where people open the links it prints. */
export interface AdminContext {
  /** PARLANCE_PUBLIC_URL, else http://localhost:<PORT>. */
  publicUrl: string;
}

const link = (context: AdminContext, page: string, secret: string) =>
  `${context.publicUrl}/${page}#${secret}`;

/** One operator command (CONTRACT §2): its words, its options, and the one core call it makes. */
export interface AdminCommand {
  /** The words after `admin`, e.g. "project create". */
  name: string;
  /** The options as the help shows them. */
  synopsis: string;
  summary: string;
  flags: readonly string[];
  /**
   * Whether the command may run on a store that does not exist yet (and so create it). Only
   * `org create` may: anything else on a new, empty store could only fail or list nothing, and
   * would leave a stray database behind (often in the wrong working folder).
   */
  createsStore: boolean;
  /**
   * Reads the options (a usage mistake throws here, before any store is opened) and returns the
   * core call to make.
   */
  prepare(args: ParsedArgs): (admin: Admin, context: AdminContext) => Promise<unknown>;
}

type Spec = Omit<AdminCommand, "createsStore"> & { createsStore?: boolean };
const command = (spec: Spec): AdminCommand => ({ createsStore: false, ...spec });

export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  command({
    name: "org create",
    synopsis: "--name NAME",
    summary: 'Creates an organization; prints {"id","name"}.',
    flags: ["name"],
    createsStore: true,
    prepare(args) {
      const name = required(args, "name");
      return (a) => a.createOrg(name);
    },
  }),
  command({
    name: "org list",
    synopsis: "",
    summary: 'Lists every organization by name; prints [{"id","name","maxTranslations","createdAt"}…].',
    flags: [],
    prepare: () => (a) => a.listOrgs(),
  }),
  command({
    name: "project create",
    synopsis: "--org ORG_ID --name NAME --base LANG [--languages LANG,LANG]",
    summary: "Creates a project (the base language joins its languages); prints the project.",
    flags: ["org", "name", "base", "languages"],
    prepare(args) {
      const input = {
        orgId: required(args, "org"),
        name: required(args, "name"),
        baseLanguage: required(args, "base"),
        languages: list(optional(args, "languages") ?? ""),
      };
      return (a) => a.createProject(input);
    },
  }),
  command({
    name: "project list",
    synopsis: "[--org ORG_ID]",
    summary:
      'Lists the projects (not deleted) of every organization, or of one, by name;\nprints [{"id","name","baseLanguage","languages","orgId"}…].',
    flags: ["org"],
    prepare(args) {
      const org = optional(args, "org");
      return (a) => a.listProjects(org);
    },
  }),
  command({
    name: "project add-language",
    synopsis: "--project ID --language LANG",
    summary: "Adds a language to a project; prints the project.",
    flags: ["project", "language"],
    prepare(args) {
      const [project, language] = [required(args, "project"), required(args, "language")];
      return (a) => a.addLanguage(project, language);
    },
  }),
  command({
    name: "project delete",
    synopsis: "--project ID",
    summary: 'Deletes a project (soft: its rows stay in the store); prints {"id","deleted":true}.',
    flags: ["project"],
    prepare(args) {
      const project = required(args, "project");
      return (a) => a.deleteProject(project);
    },
  }),
  command({
    name: "key create",
    synopsis: "--org ORG_ID --name NAME --scopes SCOPE,SCOPE [--rate-limit N] [--expires-at ISO]",
    summary:
      "Creates an API key; prints its info and the full key, shown once.\nScopes: translations:read, translations:write, export:read, admin.",
    flags: ["org", "name", "scopes", "rate-limit", "expires-at"],
    prepare(args) {
      const org = required(args, "org");
      const input = {
        name: required(args, "name"),
        scopes: list(required(args, "scopes")),
        rateLimit: integerFlag(args, "rate-limit"),
        expiresAt: optional(args, "expires-at"),
      };
      return (a) => a.createKey(org, input);
    },
  }),
  command({
    name: "key deactivate",
    synopsis: "--id KEY_ID",
    summary: "Deactivates an API key at once; prints its info.",
    flags: ["id"],
    prepare(args) {
      const id = required(args, "id");
      return (a) => a.deactivateKey(id);
    },
  }),
  command({
    name: "quota set",
    synopsis: "--org ORG_ID --max-translations N",
    summary: "Caps the rows an organization may hold across its projects.",
    flags: ["org", "max-translations"],
    prepare(args) {
      const org = required(args, "org");
      const max = integerFlag(args, "max-translations");
      if (max === undefined) throw new UsageError("--max-translations is required");
      return (a) => a.setQuota(org, max);
    },
  }),
  command({
    name: "env set",
    synopsis: "--project ID --env NAME --language LANG --key KEY --value TEXT",
    summary: "Overrides one key's value in an environment (pulls naming it get the override).",
    flags: ["project", "env", "language", "key", "value"],
    prepare(args) {
      const given = args.flags.get("value");
      const input = {
        projectId: required(args, "project"),
        environment: required(args, "env"),
        language: required(args, "language"),
        key: required(args, "key"),
        // An empty value is a value: an override may blank a string out.
        value: typeof given === "string" ? given : required(args, "value"),
      };
      return (a) => a.setEnvironmentOverride(input);
    },
  }),
  command({
    name: "record set",
    synopsis: "--project ID --language LANG --key KEY [--value TEXT] [--status STATUS]",
    summary: "Sets one record's value and/or status (history names the operator); prints the record.",
    flags: ["project", "language", "key", "value", "status"],
    prepare(args) {
      const value = args.flags.get("value");
      const input = {
        projectId: required(args, "project"),
        language: required(args, "language"),
        key: required(args, "key"),
        value: typeof value === "string" ? value : undefined,
        status: optional(args, "status"),
      };
      if (input.value === undefined && input.status === undefined)
        throw new UsageError("record set needs --value or --status");
      return (a) => a.setRecord(input);
    },
  }),
  command({
    name: "user create",
    synopsis: "--email EMAIL --name NAME [--org ORG_ID [--role ROLE] [--languages LANG,LANG]]",
    summary:
      "Creates an account and prints a one-time link (24 h) where the person sets a password.\n" +
      "Without --org, on a store with no user yet: owner of every organization (like the setup link).\n" +
      "With --org: a member with --role (owner, admin, developer, reviewer, translator; default translator).",
    flags: ["email", "name", "org", "role", "languages"],
    prepare(args) {
      const languages = optional(args, "languages");
      const input = {
        email: required(args, "email"),
        name: required(args, "name"),
        orgId: optional(args, "org"),
        role: optional(args, "role"),
        languages: languages === undefined ? null : list(languages),
      };
      return async (a, context) => {
        const { secret, ...created } = await a.createUser(input);
        return { ...created, link: link(context, "reset", secret) };
      };
    },
  }),
  command({
    name: "user invite",
    synopsis: "--org ORG_ID --email EMAIL --role ROLE [--languages LANG,LANG]",
    summary: "Invites a person to an organization; prints the one-time invitation link (7 days).",
    flags: ["org", "email", "role", "languages"],
    prepare(args) {
      const org = required(args, "org");
      const languages = optional(args, "languages");
      const input = {
        email: required(args, "email"),
        role: required(args, "role"),
        languages: languages === undefined ? null : list(languages),
      };
      return async (a, context) => {
        const { secret, invitation } = await a.inviteUser(org, input);
        return { ...invitation, link: link(context, "invite", secret) };
      };
    },
  }),
  command({
    name: "user reset-password",
    synopsis: "--email EMAIL",
    summary:
      "Prints a one-time link (24 h) where the person sets a new password; using it ends their sessions.",
    flags: ["email"],
    prepare(args) {
      const email = required(args, "email");
      return async (a, context) => {
        const { secret, ...reset } = await a.resetPassword(email);
        return { ...reset, link: link(context, "reset", secret) };
      };
    },
  }),
  command({
    name: "translations list",
    synopsis: "--project ID --language LANG",
    summary: 'Lists every row of one language by key; prints [{"id","key","language","value","status"}…].',
    flags: ["project", "language"],
    prepare(args) {
      const [project, language] = [required(args, "project"), required(args, "language")];
      return (a) => a.listTranslations(project, language);
    },
  }),
];

/** The command named by the words after `admin`, or null. */
export function findAdminCommand(words: readonly string[]): AdminCommand | null {
  const name = words.slice(0, 2).join(" ");
  return ADMIN_COMMANDS.find((c) => c.name === name) ?? null;
}

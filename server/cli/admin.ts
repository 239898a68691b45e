import type { Parlance } from "../../core/index.ts";
import { integerFlag, list, optional, type ParsedArgs, required, UsageError } from "./args.ts";

export const ADMIN_USAGE = `parlance admin <command>   (reads PARLANCE_DATABASE_URL; prints one JSON document)

  org create --name NAME
  project create --org ORG_ID --name NAME --base en --languages en,fr,de
  project add-language --project ID --language pt-BR
  project delete --project ID
  key create --org ORG_ID --name NAME --scopes a,b [--rate-limit N] [--expires-at ISO]
  key deactivate --id KEY_ID
  quota set --org ORG_ID --max-translations N
  env set --project ID --env NAME --language LANG --key KEY --value TEXT
  translations list --project ID --language LANG`;

/** CONTRACT §2: each operator command maps to one core call; the result is printed as JSON. */
export async function runAdmin(parlance: Parlance, args: ParsedArgs): Promise<unknown> {
  const [, resource, action] = args.positionals;
  const a = parlance.admin;
  switch (`${resource} ${action}`) {
    case "org create":
      return a.createOrg(required(args, "name"));
    case "project create":
      return a.createProject({
        orgId: required(args, "org"),
        name: required(args, "name"),
        baseLanguage: required(args, "base"),
        languages: list(optional(args, "languages") ?? ""),
      });
    case "project add-language":
      return a.addLanguage(required(args, "project"), required(args, "language"));
    case "project delete":
      return a.deleteProject(required(args, "project"));
    case "key create":
      return a.createKey(required(args, "org"), {
        name: required(args, "name"),
        scopes: list(required(args, "scopes")),
        rateLimit: integerFlag(args, "rate-limit"),
        expiresAt: optional(args, "expires-at"),
      });
    case "key deactivate":
      return a.deactivateKey(required(args, "id"));
    case "quota set": {
      const max = integerFlag(args, "max-translations");
      if (max === undefined) throw new UsageError("--max-translations is required");
      return a.setQuota(required(args, "org"), max);
    }
    case "env set":
      return a.setEnvironmentOverride({
        projectId: required(args, "project"),
        environment: required(args, "env"),
        language: required(args, "language"),
        key: required(args, "key"),
        value:
          typeof args.flags.get("value") === "string"
            ? (args.flags.get("value") as string)
            : required(args, "value"),
      });
    case "translations list":
      return a.listTranslations(required(args, "project"), required(args, "language"));
    default:
      throw new UsageError(`Unknown admin command.\n${ADMIN_USAGE}`);
  }
}

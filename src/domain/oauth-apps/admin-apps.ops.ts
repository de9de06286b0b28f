// OAuth client applications seen by admins: list with filters, create (possibly trusted: its users
// are not asked to authorize it), change and delete. Secrets are made as for POST /api/v1/apps.
import { z } from "zod";
import type { OAuthApp, Prisma } from "../../generated/prisma/client.ts";
import { isKnownScope, parseScopes } from "../auth/scopes.ts";
import { newSecret } from "../auth/secrets.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { bool, int, scopeList } from "../inputs.ts";
import { OOB_REDIRECT } from "./apps.ops.ts";
import { operation } from "../operation.ts";

const BLANK = "can't be blank";

/** Field problems in one error: the family's joined message, with field → message for the spec's object body. */
function invalidFields(problems: [field: string, missing: boolean, message: string][]) {
  if (problems.length === 0) return;
  const message = problems.map(([field, missing, msg]) => (missing ? `Missing field: ${field}.` : `${field} - ${msg}.`)).join(" ");
  throw Invalid(message, Object.fromEntries(problems.map(([field, , msg]) => [field, msg])));
}

function redirectUris(raw: string | string[]): string[] {
  return (Array.isArray(raw) ? raw : raw.split(/\s+/)).map((u) => u.trim()).filter(Boolean);
}

const uriProblem = (uris: string[]) => uris.find((u) => u !== OOB_REDIRECT && !URL.canParse(u));
const scopeProblem = (scopes: string[]) => scopes.filter((s) => !isKnownScope(s));

// name and redirect_uris are required on create: appData checks them, so missing and blank answer alike
const appFields = {
  name: z.string().optional(),
  redirect_uris: z.union([z.string(), z.array(z.string())]).optional(),
  scopes: scopeList().optional(),
  website: z.string().max(512).optional().nullable(),
  trusted: bool().optional(),
};

type AppInput = { name?: string; redirect_uris?: string | string[]; scopes?: string | string[]; website?: string | null; trusted?: boolean };

/**
 * Checks and converts what create and update share. `name` and `redirect_uris` are checked when
 * given, and must be given (and not blank) when `required`.
 */
function appData(input: AppInput, required: boolean) {
  const problems: [string, boolean, string][] = [];
  const name = input.name?.trim();
  if ((required || input.name !== undefined) && !name) problems.push(["name", true, BLANK]);
  const uris = input.redirect_uris === undefined ? undefined : redirectUris(input.redirect_uris);
  if ((required || uris) && !uris?.length) problems.push(["redirect_uris", true, BLANK]);
  else if (uris && uriProblem(uris)) problems.push(["redirect_uris", false, `Invalid URI: ${uriProblem(uris)}`]);
  const scopes = input.scopes === undefined ? undefined : parseScopes(input.scopes);
  if (scopes && scopeProblem(scopes).length) problems.push(["scopes", false, `Unknown scope: ${scopeProblem(scopes).join(", ")}`]);
  invalidFields(problems);
  return {
    ...(name !== undefined ? { name } : {}),
    ...(uris !== undefined ? { redirectUris: uris.join("\n") } : {}),
    ...(scopes !== undefined ? { scopes } : {}),
    ...(input.website !== undefined ? { website: input.website || null } : {}),
    ...(input.trusted !== undefined ? { trusted: input.trusted } : {}),
  };
}

/** Apps matching every filter given (exact name, exact client id, trusted or not), oldest first. */
export const listOAuthApps = operation({
  name: "admin.oauthApps.list",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({
    name: z.string().optional(),
    client_id: z.string().optional(),
    trusted: bool().optional(),
    offset: int().pipe(z.number().min(0)).default(0),
    limit: int().pipe(z.number().min(1)).default(50),
  }),
  async run(ctx, input): Promise<{ apps: OAuthApp[]; count: number }> {
    const where: Prisma.OAuthAppWhereInput = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.client_id !== undefined ? { clientId: input.client_id } : {}),
      ...(input.trusted !== undefined ? { trusted: input.trusted } : {}),
    };
    const [count, apps] = await Promise.all([
      ctx.db.oAuthApp.count({ where }),
      ctx.db.oAuthApp.findMany({ where, orderBy: { id: "asc" }, skip: input.offset, take: input.limit }),
    ]);
    return { apps, count };
  },
});

export const createOAuthApp = operation({
  name: "admin.oauthApps.create",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object(appFields),
  run(ctx, input) {
    const data = appData(input, true);
    return ctx.db.oAuthApp.create({
      data: {
        name: data.name!,
        redirectUris: data.redirectUris!,
        scopes: data.scopes ?? ["read"],
        website: data.website ?? null,
        trusted: data.trusted ?? false,
        clientId: newSecret(24),
        clientSecret: newSecret(32),
        createdAt: ctx.clock(),
      },
    });
  },
});

const appId = int().pipe(z.number().int().positive());

/** Changes only what is given; an unknown id is a 404 (REST answers it as the family's 400). */
export const updateOAuthApp = operation({
  name: "admin.oauthApps.update",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({ id: appId, ...appFields }),
  async run(ctx, input) {
    const data = appData(input, false);
    const { count } = await ctx.db.oAuthApp.updateMany({ where: { id: input.id }, data });
    if (count === 0) throw NotFound();
    return ctx.db.oAuthApp.findUniqueOrThrow({ where: { id: input.id } });
  },
});

/** Deletes the app with its tokens and authorizations (statuses keep no application). */
export const deleteOAuthApp = operation({
  name: "admin.oauthApps.delete",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({ id: appId }),
  async run(ctx, input) {
    const { count } = await ctx.db.oAuthApp.deleteMany({ where: { id: input.id } });
    if (count === 0) throw NotFound();
  },
});

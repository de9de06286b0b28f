// Reference API: the signed-in account and reading other accounts; the family's profile-image endpoints.
import { z } from "zod";
import { lookupAccount, listFollowers, listFollowing, searchAccounts, showAccount, verifyCredentials } from "../../src/domain/accounts/accounts.read.ts";
import { profileInput, updateProfile, type ImageInput } from "../../src/domain/accounts/profile.ops.ts";
import { bool } from "../../src/domain/inputs.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route, type RouteInput } from "../../src/http/routes/route.ts";
import { renderAccount, renderAccounts } from "../../src/views/account.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { ImageUrlSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const withRelationships = z.object({ with_relationships: bool().optional() });
const idParam = z.object({ id: z.string() });

/** update_credentials' body: the profile fields, with the family's keys carrying the namespace word. */
const credentialsBody = (ns: string) =>
  profileInput
    .omit({ avatar: true, header: true, background: true, settings_store: true, background_image_description: true })
    .extend({
      avatar: z.literal("").optional(),
      header: z.literal("").optional(),
      [`${ns}_background_image`]: z.literal("").optional(),
      [`${ns}_background_image_description`]: z.string().optional(),
      [`${ns}_settings_store`]: profileInput.shape.settings_store,
    });

/** An uploaded file wins over the "" reset marker in the body. */
function image(input: RouteInput<unknown, unknown, Record<string, unknown>>, field: string): ImageInput | undefined {
  const file = input.files[field]?.[0];
  if (file) return file;
  return input.body[field] === "" ? "" : undefined;
}

export const accountRoutes = [
  route({
    method: "GET",
    path: "/api/v1/accounts/verify_credentials",
    view: AccountSchema,
    summary: "The signed-in account with its source and private settings",
    tags: ["Accounts"],
    operation: verifyCredentials,
    async handler(ctx) {
      return renderAccount(ctx, await verifyCredentials(ctx, {}), { asOwner: true });
    },
  }),
  route({
    method: "PATCH",
    path: "/api/v1/accounts/update_credentials",
    view: AccountSchema,
    summary: "Update the signed-in account's profile and settings",
    tags: ["Accounts"],
    operation: updateProfile,
    body: credentialsBody,
    files: ["avatar", "header", "$ns_background_image"],
    fileLimit: (config) => Math.max(config.get("instance", "avatar_upload_limit"), config.get("instance", "banner_upload_limit"), config.get("instance", "background_upload_limit")),
    async handler(ctx, input) {
      const ns = ctx.settings.namespace;
      const body = input.body as Record<string, any>;
      const updated = await updateProfile(ctx, {
        ...body,
        settings_store: body[`${ns}_settings_store`],
        background_image_description: body[`${ns}_background_image_description`],
        avatar: image(input, "avatar"),
        header: image(input, "header"),
        background: image(input, `${ns}_background_image`),
      });
      return renderAccount(ctx, updated, { asOwner: true });
    },
  }),
  ...(["avatar", "header"] as const).map((kind) =>
    route({
      method: "DELETE",
      path: `/api/v1/profile/${kind}`,
      view: AccountSchema,
      summary: `Remove the ${kind} image (the instance default shows instead)`,
      tags: ["Accounts"],
      operation: updateProfile,
      handler: async (ctx) => renderAccount(ctx, await updateProfile(ctx, { [kind]: "" }), { asOwner: true }),
    }),
  ),
  ...(["avatar", "banner", "background"] as const).map((kind) =>
    route({
      method: "PATCH",
      path: `/api/v1/$ns/accounts/update_${kind}`,
      view: ImageUrlSchema,
      summary: `Set (upload or data URL) or clear (empty) the ${kind} image`,
      tags: ["Accounts"],
      operation: updateProfile,
      body: z.object({ img: z.string().optional() }),
      files: ["img"],
      fileLimit: (config) => config.get("instance", `${kind}_upload_limit`),
      async handler(ctx, input) {
        const field = kind === "banner" ? "header" : kind;
        const file = input.files.img?.[0] ?? dataUrlUpload(input.body.img);
        const updated = await updateProfile(ctx, { [field]: file ?? "" });
        return { url: updated[field] };
      },
    }),
  ),
  route({
    method: "GET",
    path: "/api/v1/accounts/lookup",
    view: AccountSchema,
    summary: "Find an account by its acct (nick or nick@host)",
    tags: ["Accounts"],
    operation: lookupAccount,
    query: z.object({ acct: z.string() }).extend(withRelationships.shape),
    async handler(ctx, { query }) {
      return renderAccount(ctx, await lookupAccount(ctx, query), { withRelationships: query.with_relationships });
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/search",
    view: listOf(AccountSchema),
    rateLimit: "search",
    summary: "Search accounts by nickname or display name (no authentication needed)",
    tags: ["Accounts"],
    operation: searchAccounts,
    query: searchAccounts.input,
    async handler(ctx, { query }) {
      return renderAccounts(ctx, await searchAccounts(ctx, query), { withRelationships: !!ctx.viewer.account });
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/:id",
    view: AccountSchema,
    summary: "An account by id or nickname",
    tags: ["Accounts"],
    operation: showAccount,
    params: idParam,
    query: withRelationships,
    async handler(ctx, { params, query }) {
      return renderAccount(ctx, await showAccount(ctx, params), { withRelationships: query.with_relationships });
    },
  }),
  ...(["followers", "following"] as const).map((side) =>
    route({
      method: "GET",
      path: `/api/v1/accounts/:id/${side}`,
      view: listOf(AccountSchema),
      summary: side === "followers" ? "Accounts following this one" : "Accounts this one follows",
      tags: ["Accounts"],
      operation: side === "followers" ? listFollowers : listFollowing,
      params: idParam,
      query: pageInput.extend(withRelationships.shape),
      paged: "id",
      async handler(ctx, { params, query }) {
        const page = await (side === "followers" ? listFollowers : listFollowing)(ctx, { ...query, id: params.id });
        return { ...page, items: await renderAccounts(ctx, page.items, { withRelationships: query.with_relationships }) };
      },
    }),
  ),
];

/** The family's image endpoints also take `img` as a data: URL. */
function dataUrlUpload(value: string | undefined) {
  const m = value?.match(/^data:([\w/+.-]+);base64,(.+)$/s);
  if (!m) return undefined;
  const buffer = Buffer.from(m[2], "base64");
  return { buffer, mimetype: m[1], originalname: "upload", size: buffer.length };
}

// The later family's synced frontend settings profiles, under its family word (`/api/v1/<family>/…`,
// `/api/v1/akkoma/…` with API_FAMILY=akkoma, as its web client calls them).
import { z } from "zod";
import { deleteFrontendProfile, getFrontendProfile, listFrontendProfiles, saveFrontendProfile } from "../../src/domain/accounts/frontend-profiles.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { DeletedOkSchema, FrontendProfileSettingsSchema, FrontendProfilesSchema } from "../../src/views/schemas/tools.ts";

const tags = ["Frontend settings"];
const frontend = z.object({ frontend_name: z.string() });
const profile = frontend.extend({ profile_name: z.string() });
const BASE = "/api/v1/$family/frontend_settings/:frontend_name";

export const frontendProfileRoutes = [
  route({
    method: "GET",
    path: BASE,
    view: FrontendProfilesSchema,
    summary: "The signed-in user's settings profiles for a frontend: `[{name, version}]`",
    tags,
    operation: listFrontendProfiles,
    params: frontend,
    handler: async (ctx, { params }) => (await listFrontendProfiles(ctx, params)).map((p) => ({ name: p.profileName, version: p.version })),
  }),
  route({
    method: "GET",
    path: `${BASE}/:profile_name`,
    view: FrontendProfileSettingsSchema,
    summary: "One profile's settings (the stored JSON object); 404 when there is none",
    tags,
    operation: getFrontendProfile,
    params: profile,
    handler: async (ctx, { params }) => (await getFrontendProfile(ctx, params)).settings,
  }),
  route({
    method: "PUT",
    path: `${BASE}/:profile_name`,
    view: FrontendProfileSettingsSchema,
    summary: "Create or replace a profile: `{settings, version}`; 422 when `version` is not greater than the stored one or the settings are too large",
    tags,
    operation: saveFrontendProfile,
    params: profile,
    body: z.object({ settings: z.record(z.string(), z.unknown()), version: z.unknown() }),
    handler: async (ctx, { params, body }) => (await saveFrontendProfile(ctx, { ...params, settings: body.settings, version: body.version as number })).settings,
  }),
  route({
    method: "DELETE",
    path: `${BASE}/:profile_name`,
    view: DeletedOkSchema,
    summary: "Delete a profile: `{deleted: \"ok\"}`; 404 when there is none",
    tags,
    operation: deleteFrontendProfile,
    params: profile,
    async handler(ctx, { params }) {
      await deleteFrontendProfile(ctx, params);
      return { deleted: "ok" };
    },
  }),
];

// The viewer's own client settings over GraphQL: the mascot, the synced frontend settings profiles and
// the OAuth applications the viewer registered. Each field calls the operation its REST route calls.
import { deleteFrontendProfile, getFrontendProfile, listFrontendProfiles, saveFrontendProfile } from "../domain/accounts/frontend-profiles.ops.ts";
import { showMascot, updateMascot, type Mascot } from "../domain/mascot/mascot.ops.ts";
import { listOwnApps } from "../domain/oauth-apps/apps.ops.ts";
import type { FrontendSettingsProfile } from "../generated/prisma/client.ts";
import { builder } from "./builder.ts";
import { FileScalar } from "./emoji.ts";
import { OAuthAppRef } from "./oauth-apps.ts";
import { accessOf } from "./access.ts";

const MascotRef = builder.objectRef<Mascot>("Mascot").implement({
  fields: (t) => ({ id: t.exposeID("id"), url: t.exposeString("url"), type: t.exposeString("type"), mimeType: t.exposeString("mime_type") }),
});

const FrontendProfile = builder.objectRef<FrontendSettingsProfile>("FrontendSettingsProfile").implement({
  description: "A named settings profile a frontend synced (REST lists `{name, version}` and reads `settings`)",
  fields: (t) => ({
    name: t.exposeString("profileName"),
    version: t.exposeInt("version"),
    settingsJson: t.string({ description: "the stored settings object, JSON-encoded", resolve: (p) => JSON.stringify(p.settings) }),
  }),
});

builder.queryFields((t) => ({
  mascot: t.field({ ...accessOf(showMascot), type: MascotRef, description: "The viewer's mascot (the instance default until one is set)", resolve: (_r, _a, ctx) => showMascot(ctx, {}) }),
  frontendProfiles: t.field({
    ...accessOf(listFrontendProfiles),
    type: [FrontendProfile],
    args: { frontendName: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => listFrontendProfiles(ctx, { frontend_name: a.frontendName }),
  }),
  frontendProfile: t.field({
    ...accessOf(getFrontendProfile),
    type: FrontendProfile,
    args: { frontendName: t.arg.string({ required: true }), profileName: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getFrontendProfile(ctx, { frontend_name: a.frontendName, profile_name: a.profileName }),
  }),
  ownApps: t.field({
    ...accessOf(listOwnApps),
    type: [OAuthAppRef],
    description: "The applications the viewer registered, oldest first (never their secrets)",
    resolve: (_r, _a, ctx) => listOwnApps(ctx, {}),
  }),
}));

builder.mutationFields((t) => ({
  updateMascot: t.field({
    ...accessOf(updateMascot),
    type: MascotRef,
    args: { file: t.arg({ type: FileScalar, required: true }) },
    resolve: async (_r, a, ctx) =>
      updateMascot(ctx, { file: { buffer: Buffer.from(await a.file.arrayBuffer()), mimetype: a.file.type, originalname: a.file.name, size: a.file.size } }),
  }),
  saveFrontendProfile: t.field({
    ...accessOf(saveFrontendProfile),
    type: FrontendProfile,
    description: "Creates or replaces a profile; `version` must be greater than the stored one",
    args: { frontendName: t.arg.string({ required: true }), profileName: t.arg.string({ required: true }), settingsJson: t.arg.string({ required: true }), version: t.arg.int({ required: true }) },
    resolve: (_r, a, ctx) =>
      saveFrontendProfile(ctx, { frontend_name: a.frontendName, profile_name: a.profileName, settings: parseObject(a.settingsJson), version: a.version }),
  }),
  deleteFrontendProfile: t.boolean({
    ...accessOf(deleteFrontendProfile),
    args: { frontendName: t.arg.string({ required: true }), profileName: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteFrontendProfile(ctx, { frontend_name: a.frontendName, profile_name: a.profileName }), true),
  }),
}));

/** The settings argument: a JSON object (the operation refuses anything else). */
function parseObject(json: string): Record<string, unknown> {
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return null as never; // the operation's validation answers the invalid argument
  }
}

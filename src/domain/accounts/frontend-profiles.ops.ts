// The later family's synced frontend settings: each account keeps named profiles per frontend, each
// a JSON object with a client-chosen version; an update must carry a greater version than the stored
// one (so a stale device cannot overwrite newer settings), and a profile is at most
// `instance.max_frontend_settings_json_chars` characters of JSON.
import { z } from "zod";
import { Prisma, type FrontendSettingsProfile } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";

const word = z.string().regex(/^[A-Za-z0-9_.-]{1,255}$/, "letters, digits, `_`, `.` and `-`");
const frontend = { frontend_name: word };
const profile = { ...frontend, profile_name: word };

const key = (ctx: Ctx, input: { frontend_name: string; profile_name: string }) => ({
  accountId_frontendName_profileName: { accountId: ctx.viewer.account!.id, frontendName: input.frontend_name, profileName: input.profile_name },
});

export const listFrontendProfiles = operation({
  name: "accounts.frontendProfiles.list",
  access: { scopes: ["read:accounts"] },
  input: z.object(frontend),
  authorize: requireAccount,
  run: (ctx, input) =>
    ctx.db.frontendSettingsProfile.findMany({ where: { accountId: ctx.viewer.account!.id, frontendName: input.frontend_name }, orderBy: { profileName: "asc" } }),
});

export const getFrontendProfile = operation({
  name: "accounts.frontendProfiles.get",
  access: { scopes: ["read:accounts"] },
  input: z.object(profile),
  authorize: requireAccount,
  async run(ctx, input): Promise<FrontendSettingsProfile> {
    const found = await ctx.db.frontendSettingsProfile.findUnique({ where: key(ctx, input) });
    if (!found) throw NotFound();
    return found;
  },
});

export const VERSION_OUT_OF_DATE = "version must be greater than the current version";

export const saveFrontendProfile = operation({
  name: "accounts.frontendProfiles.save",
  access: { scopes: ["write:accounts"] },
  input: z.object({ ...profile, settings: z.record(z.string(), z.unknown()), version: int().pipe(z.number().min(0).max(2_147_483_647)) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<FrontendSettingsProfile> {
    if (JSON.stringify(input.settings).length > ctx.config.get("instance", "max_frontend_settings_json_chars")) throw Unprocessable("settings too large", { settings: "is too long" });
    const settings = input.settings as Prisma.InputJsonObject;
    // only a greater version replaces what is stored: one conditional statement, so two devices cannot both win
    const { count } = await ctx.db.frontendSettingsProfile.updateMany({
      where: { accountId: ctx.viewer.account!.id, frontendName: input.frontend_name, profileName: input.profile_name, version: { lt: input.version } },
      data: { settings, version: input.version },
    });
    if (count === 0) {
      try {
        await ctx.db.frontendSettingsProfile.create({
          data: { accountId: ctx.viewer.account!.id, frontendName: input.frontend_name, profileName: input.profile_name, settings, version: input.version },
        });
      } catch (error) {
        // it exists with a version as great or greater
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw Unprocessable(VERSION_OUT_OF_DATE, { version: "is out of date" });
        throw error;
      }
    }
    return (await ctx.db.frontendSettingsProfile.findUnique({ where: key(ctx, input) }))!;
  },
});

export const deleteFrontendProfile = operation({
  name: "accounts.frontendProfiles.delete",
  access: { scopes: ["write:accounts"] },
  input: z.object(profile),
  authorize: requireAccount,
  async run(ctx, input) {
    const { count } = await ctx.db.frontendSettingsProfile.deleteMany({
      where: { accountId: ctx.viewer.account!.id, frontendName: input.frontend_name, profileName: input.profile_name },
    });
    if (count === 0) throw NotFound();
  },
});

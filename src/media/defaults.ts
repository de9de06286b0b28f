// Profile images fall back to the instance's defaults (served from src/media/assets at /images).
import type { Settings } from "../config/env.ts";
import type { Account } from "../generated/prisma/client.ts";

type Ctx = { settings: Pick<Settings, "baseUrl"> };

export const avatarUrl = (ctx: Ctx, a: Pick<Account, "avatar">) => a.avatar ?? `${ctx.settings.baseUrl}/images/avi.png`;
export const headerUrl = (ctx: Ctx, a: Pick<Account, "header">) => a.header ?? `${ctx.settings.baseUrl}/images/banner.png`;

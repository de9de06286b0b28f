// Profile images fall back to the instance's defaults (served from src/media/assets at /images).
import type { Settings } from "../../config/env.ts";
import type { Account } from "../../generated/prisma/client.ts";
import type { RuntimeConfig } from "../../config/runtime.ts";
import { proxiedUrl } from "./proxy-url.ts";

type Ctx = { settings: Pick<Settings, "baseUrl">; config?: RuntimeConfig; db?: object };

// remote images go through the media proxy when it is on (proxiedUrl leaves local ones)
export const avatarUrl = (ctx: Ctx, a: Pick<Account, "avatar">) => proxiedUrl(ctx, a.avatar) ?? `${ctx.settings.baseUrl}/images/avi.png`;
export const headerUrl = (ctx: Ctx, a: Pick<Account, "header">) => proxiedUrl(ctx, a.header) ?? `${ctx.settings.baseUrl}/images/banner.png`;

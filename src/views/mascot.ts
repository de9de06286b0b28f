// The family's mascot of an account.
import type { Mascot } from "../../src/domain/mascot/mascot.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";

export const renderMascot = (ctx: Ctx, m: Mascot) => ({ id: m.id, url: m.url, type: m.type, [ctx.settings.namespace]: { mime_type: m.mime_type } });

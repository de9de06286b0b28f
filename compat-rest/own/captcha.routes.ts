// Own API: the registration captcha (pleroma-fe calls the path without /v1).
import { getCaptcha } from "../../src/domain/captcha/captcha.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { CaptchaSchema } from "../../src/views/schemas/tools.ts";

export const captchaRoutes = [
  route({
    method: "GET",
    path: ["/api/v1/$ns/captcha", "/api/$ns/captcha"],
    view: CaptchaSchema,
    summary: "A new captcha for registration (`type: none` when disabled)",
    tags: ["Captcha"],
    operation: getCaptcha,
    async handler(ctx, { res }) {
      res.set("Cache-Control", "no-store");
      return getCaptcha(ctx, {});
    },
  }),
];

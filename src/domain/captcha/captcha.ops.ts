// The native captcha: an image of a short text (svg-captcha draws it as paths, so the SVG source does
// not spell the answer). The answer travels to the client only as `answer_data`: an HMAC of the answer
// bound to the token and an expiry, signed with a server secret. A solution is checked by recomputing
// the HMAC; each token is accepted once (recorded in `captcha_uses`).
import crypto from "node:crypto";
import { z } from "zod";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { instanceSecret } from "../instance/secrets.ts";
import { operation } from "../operation.ts";
import { safeEqual } from "../auth/secrets.ts";

const key = (ctx: Ctx) => instanceSecret(ctx, "captcha_key", () => crypto.randomBytes(32).toString("base64url"));
const hmac = (secret: string, data: string) => crypto.createHmac("sha256", secret).update(data).digest("base64url");
const answerMac = (secret: string, token: string, answer: string) => hmac(secret, `answer:${token}:${answer.trim().toLowerCase()}`);

export const getCaptcha = operation({
  name: "getCaptcha",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    const settings = ctx.config.group("captcha");
    if (!settings.enabled) return { type: "none" as const };
    const secret = await key(ctx);
    // loaded at the first captcha: it parses a font when imported (docs/performance.md, "Start-up and idle memory")
    const svgCaptcha = (await import("svg-captcha")).default;
    const image = svgCaptcha.create({ size: 5, noise: 3, ignoreChars: "0o1ilI", background: "#f4f4f4" });
    const token = crypto.randomBytes(16).toString("base64url");
    const validUntil = ctx.clock().getTime() + settings.seconds_valid * 1000;
    const payload = Buffer.from(JSON.stringify({ t: token, a: answerMac(secret, token, image.text), v: validUntil })).toString("base64url");
    return {
      type: "native" as const,
      token,
      url: `data:image/svg+xml;base64,${Buffer.from(image.data).toString("base64")}`,
      answer_data: `${payload}.${hmac(secret, payload)}`,
      seconds_valid: settings.seconds_valid,
    };
  },
});

export interface CaptchaSolution {
  captcha_token?: string | null;
  captcha_solution?: string | null;
  captcha_answer_data?: string | null;
}

const refuse = (message: string) => Invalid(message, { captcha: message });

/** Throws the family's messages unless the solution is right, in time and not used before. */
export async function checkCaptcha(ctx: Ctx, input: CaptchaSolution): Promise<void> {
  const settings = ctx.config.group("captcha");
  if (!settings.enabled) return;
  const { captcha_token: token, captcha_solution: solution, captcha_answer_data: answerData } = input;
  for (const [name, value] of [["captcha_solution", solution], ["captcha_token", token], ["captcha_answer_data", answerData]] as const) {
    if (!value) throw refuse(`Invalid CAPTCHA (Missing parameter: ${name})`);
  }
  const secret = await key(ctx);
  const [payload, signature] = answerData!.split(".");
  const expected = payload ? hmac(secret, payload) : "";
  if (!signature || !safeEqual(signature, expected)) throw refuse("Invalid answer data");
  const data = JSON.parse(Buffer.from(payload, "base64url").toString()) as { t: string; a: string; v: number };
  if (data.t !== token) throw refuse("Invalid answer data");
  if (ctx.clock().getTime() > data.v) throw refuse("CAPTCHA expired");
  if (!safeEqual(answerMac(secret, token!, solution!), String(data.a))) throw refuse("Invalid CAPTCHA");
  const used = await ctx.db.captchaUse.createMany({ data: [{ token: token!, expiresAt: new Date(data.v) }], skipDuplicates: true });
  if (used.count === 0) throw refuse("CAPTCHA already used");
  await ctx.db.captchaUse.deleteMany({ where: { expiresAt: { lt: ctx.clock() } } });
}

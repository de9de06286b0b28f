// The native captcha: `type: none` when disabled; when enabled an SVG image and signed answer data,
// checked at registration: right answer once, wrong answer, expired, reused and tampered data refused.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { registerApp, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe.each(suiteKinds(import.meta.url))("captcha on %s", (kind) => {
  let server: TestServer;
  let appToken: string;
  let n = 0;

  const register = (extra: Record<string, unknown>) =>
    server.fetch("/api/v1/accounts", {
      json: { username: `user${++n}`, email: `user${n}@example.test`, password: "secret-password", agreement: true, locale: "en", ...extra },
      headers: { authorization: `Bearer ${appToken}` },
    });
  const captcha = async () => (await (await server.fetch("/api/ext/captcha")).json()) as Record<string, any>;
  const captchaSettings = () => server.services.config.group("captcha") as { enabled: boolean; seconds_valid: number };

  /** Answer data for a chosen answer, signed with the server's secret as the server signs it. */
  const forge = async (token: string, answer: string, validUntil: number) => {
    const { value: secret } = await server.services.db.instanceSecret.findUniqueOrThrow({ where: { name: "captcha_key" } });
    const mac = (d: string) => crypto.createHmac("sha256", secret).update(d).digest("base64url");
    const payload = Buffer.from(JSON.stringify({ t: token, a: mac(`answer:${token}:${answer}`), v: validUntil })).toString("base64url");
    return `${payload}.${mac(payload)}`;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { REGISTRATIONS_OPEN: "true" });
    const app = await registerApp(server);
    const res = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write follow push" } });
    appToken = (await res.json()).access_token;
  });
  afterAll(() => server?.close());

  test("disabled: type none, and registration needs no captcha", async () => {
    expect(await captcha()).toEqual({ type: "none" });
    expect((await register({})).status).toBe(200);
  });

  test("enabled: an SVG image, a token and signed answer data; registration checks them", async () => {
    captchaSettings().enabled = true;
    try {
      const c = await captcha();
      expect(c).toMatchObject({ type: "native", seconds_valid: 300, token: expect.any(String), answer_data: expect.any(String) });
      expect(Buffer.from(c.url.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString()).toMatch(/^<svg[\s\S]*<path/);
      expect(await (await server.fetch("/api/v1/ext/captcha")).json()).toMatchObject({ type: "native" });

      const refused = async (extra: Record<string, unknown>, message: string) => {
        const res = await register(extra);
        expect(res.status).toBe(400);
        expect((await res.json()).error).toBe(message);
      };
      await refused({}, "Invalid CAPTCHA (Missing parameter: captcha_solution)");
      // the real captcha's data verifies (a wrong answer is "Invalid CAPTCHA", not "Invalid answer data")
      await refused({ captcha_token: c.token, captcha_solution: "wrong", captcha_answer_data: c.answer_data }, "Invalid CAPTCHA");
      await refused({ captcha_token: c.token, captcha_solution: "x", captcha_answer_data: c.answer_data.replace(/.$/, (ch: string) => (ch === "A" ? "B" : "A")) }, "Invalid answer data");
      await refused({ captcha_token: "another", captcha_solution: "x", captcha_answer_data: c.answer_data }, "Invalid answer data");

      const fresh = await captcha();
      const accounts = await server.services.db.account.count();
      const good = { captcha_token: fresh.token, captcha_solution: " ABCDE ", captcha_answer_data: await forge(fresh.token, "abcde", Date.now() + 60_000) };
      expect((await register(good)).status).toBe(200);
      expect(await server.services.db.account.count()).toBe(accounts + 1);
      await refused(good, "CAPTCHA already used");

      const old = await captcha();
      await refused({ captcha_token: old.token, captcha_solution: "abcde", captcha_answer_data: await forge(old.token, "abcde", Date.now() - 1000) }, "CAPTCHA expired");
      expect(await server.services.db.account.count()).toBe(accounts + 1);
    } finally {
      captchaSettings().enabled = false;
    }
  });
});

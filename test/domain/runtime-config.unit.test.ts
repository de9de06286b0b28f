import { expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { defaultRuntimeSettings } from "../../src/config/runtime.ts";

test("SMTP_URL switches the mailer to SMTP with its credentials", () => {
  const mailer = defaultRuntimeSettings(loadSettings({ SMTP_URL: "smtps://me%40host:s3cret@mail.example.test", MAIL_FROM: "hi@example.test" })).mailer;
  expect(mailer).toEqual({ transport: "smtp", from: "hi@example.test", smtp: { host: "mail.example.test", port: 465, secure: true, user: "me@host", password: "s3cret" } });
});

test("without SMTP_URL mail goes to files, from the instance address or noreply@domain", () => {
  expect(defaultRuntimeSettings(loadSettings({ BASE_URL: "https://social.example.test" })).mailer).toMatchObject({ transport: "file", from: "noreply@social.example.test" });
  expect(defaultRuntimeSettings(loadSettings({ INSTANCE_EMAIL: "admin@x.test" })).mailer.from).toBe("admin@x.test");
  expect(() => loadSettings({ SMTP_URL: "http://nope" })).toThrow(/SMTP_URL/);
});

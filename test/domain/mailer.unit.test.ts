// The mailer's two transports: .eml files under DATA_DIR/mail (default) and SMTP (against a tiny
// in-process SMTP server), switched by the runtime settings without a restart.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadSettings, type Settings } from "../../src/config/env.ts";
import { defaultRuntimeSettings, type RuntimeConfig, type RuntimeSettings } from "../../src/config/runtime.ts";
import { createMailer, mailDir } from "../../src/mail/mailer.ts";
import { confirmationMail, passwordResetMail } from "../../src/mail/templates.ts";
import { decodeQuotedPrintable, readMails } from "../support/mailbox.ts";

function fakeConfig(settings: Settings): RuntimeConfig & { values: RuntimeSettings } {
  const values = defaultRuntimeSettings(settings);
  return { values, get: (g, k) => values[g][k], group: (g) => values[g], reload: async () => {} };
}

/** Accepts one connection's worth of SMTP at a time and keeps what DATA carried. */
function smtpServer() {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let i: number;
      while ((i = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(current);
            current = { from: "", to: [], data: "" };
            socket.write("250 OK queued\r\n");
          } else current.data += (line.startsWith("..") ? line.slice(1) : line) + "\n";
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === "EHLO" || cmd === "HELO") socket.write("250-test\r\n250 8BITMIME\r\n");
        else if (cmd === "MAIL") (current.from = line.slice(10).trim()), socket.write("250 OK\r\n");
        else if (cmd === "RCPT") current.to.push(line.slice(8).trim()), socket.write("250 OK\r\n");
        else if (cmd === "DATA") (inData = true), socket.write("354 go ahead\r\n");
        else if (cmd === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  return { server, received };
}

describe("mailer", () => {
  let dataDir: string;
  let settings: Settings;
  const smtp = smtpServer();
  let smtpPort = 0;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mailer-test-"));
    settings = loadSettings({ DATA_DIR: dataDir, BASE_URL: "https://social.example", INSTANCE_EMAIL: "admin@social.example" });
    await new Promise<void>((resolve) => smtp.server.listen(0, "127.0.0.1", resolve));
    smtpPort = (smtp.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  test("the file transport writes one RFC 822 .eml per message, sortable by time", async () => {
    const mailer = createMailer(settings, fakeConfig(settings));
    await mailer.send({ to: "alice@example.test", subject: "First", text: "one" });
    await mailer.send({ to: "bob@example.test", subject: "Second ünïcode", text: "two", html: "<p>two</p>" });
    const files = fs.readdirSync(mailDir(settings));
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^[0-9a-z]{26}\.eml$/.test(f))).toBe(true);
    const mails = readMails(dataDir);
    expect(mails.map((m) => m.to)).toEqual(["alice@example.test", "bob@example.test"]);
    const [first, second] = mails;
    expect(first!.raw).toMatch(/^From: admin@social\.example$/m);
    expect(first!.raw).toMatch(/^Subject: First$/m);
    expect(first!.raw).toMatch(/^Message-ID: </m);
    expect(first!.raw).toMatch(/^Date: /m);
    expect(first!.raw).toContain("\n\none");
    // non-ASCII subjects are encoded words; the HTML alternative rides along
    expect(second!.subject).toMatch(/^=\?UTF-8\?/);
    expect(second!.raw).toContain("multipart/alternative");
    expect(second!.raw).toContain("<p>two</p>");
    expect(fs.readdirSync(mailDir(settings)).some((f) => f.endsWith(".tmp"))).toBe(false);
    fs.rmSync(mailDir(settings), { recursive: true });
  });

  test("the templates carry absolute links on the base URL, in text and HTML", async () => {
    const mailer = createMailer(settings, fakeConfig(settings));
    const account = { id: "01abc", nickname: "alice", email: "alice@example.test" };
    const ms = { baseUrl: settings.baseUrl, namespace: "ext", instanceName: "Example" };
    const confirm = confirmationMail(ms, account, "tok1");
    const reset = passwordResetMail(ms, account, "tok2");
    expect(confirm.text).toContain("https://social.example/api/account/confirm_email/01abc/tok1");
    expect(confirm.html).toContain('href="https://social.example/api/account/confirm_email/01abc/tok1"');
    expect(reset.text).toContain("https://social.example/api/v1/ext/password_reset/tok2");
    expect(reset.html).toContain('href="https://social.example/api/v1/ext/password_reset/tok2"');
    expect(reset.subject).toBe("Password reset requested at Example");
    await mailer.send(reset);
    const [mail] = readMails(dataDir);
    expect(mail!.decoded).toContain("https://social.example/api/v1/ext/password_reset/tok2");
    fs.rmSync(mailDir(settings), { recursive: true });
  });

  test("mailer.transport = smtp sends through the configured server, picked up without a restart", async () => {
    const config = fakeConfig(settings);
    const mailer = createMailer(settings, config);
    config.values.mailer.transport = "smtp";
    config.values.mailer.smtp = { host: "127.0.0.1", port: smtpPort, secure: false, user: "", password: "" };
    await mailer.send({ to: "carol@example.test", subject: "Over SMTP", text: "hello" });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.from).toContain("admin@social.example");
    expect(smtp.received[0]!.to).toEqual(["<carol@example.test>"]);
    expect(decodeQuotedPrintable(smtp.received[0]!.data)).toMatch(/^Subject: Over SMTP$/m);
    expect(fs.existsSync(mailDir(settings))).toBe(false); // nothing written to files

    // back to files: the next message lands on disk again
    config.values.mailer.transport = "file";
    await mailer.send({ to: "dave@example.test", subject: "File again", text: "x" });
    expect(readMails(dataDir).map((m) => m.to)).toEqual(["dave@example.test"]);
  });

  test("an unreachable SMTP server makes send() reject", async () => {
    const config = fakeConfig(settings);
    config.values.mailer.transport = "smtp";
    config.values.mailer.smtp = { host: "127.0.0.1", port: 1, secure: false, user: "", password: "" };
    await expect(createMailer(settings, config).send({ to: "x@example.test", subject: "s", text: "t" })).rejects.toThrow();
  });
});

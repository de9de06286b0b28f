// Outgoing e-mail. The default transport writes each message as an .eml file under DATA_DIR/mail/
// (tests and operators read them there); with the runtime setting mailer.transport = "smtp" it sends.
import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Settings } from "../config/env.ts";
import type { RuntimeConfig, RuntimeSettings } from "../config/runtime.ts";
import { newId } from "../db/ids.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** The folder the file transport writes to. */
export const mailDir = (settings: Pick<Settings, "dataDir">) => path.join(settings.dataDir, "mail");

type SmtpSettings = RuntimeSettings["mailer"]["smtp"];

/**
 * Reads the runtime settings on every message, so an admin switching transport or SMTP host takes
 * effect without a restart; the SMTP transport is reused while its settings stay the same.
 */
export function createMailer(settings: Settings, config: RuntimeConfig): Mailer {
  // nodemailer is loaded with the first message, not at start-up: most processes send none for hours
  // (docs/performance.md, "Start-up and idle memory")
  let loaded: Nodemailer | undefined;
  let composer: Transporter | undefined;
  let smtp: { key: string; transport: Transporter } | null = null;

  return {
    async send(mail) {
      const nodemailer = (loaded ??= (await import("nodemailer")).default);
      const { transport, from } = config.group("mailer");
      const message = { from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) };
      if (transport === "smtp") {
        const options = config.get("mailer", "smtp");
        const key = JSON.stringify(options);
        if (smtp?.key !== key) {
          smtp?.transport.close();
          smtp = { key, transport: smtpTransport(nodemailer, options) };
        }
        await smtp.transport.sendMail(message);
        return;
      }
      // builds the raw RFC 822 message without sending it anywhere
      composer ??= nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
      const info = await composer.sendMail(message);
      const dir = mailDir(settings);
      await fs.mkdir(dir, { recursive: true });
      // ids are time-ordered: the files sort in the order the messages were sent
      const file = path.join(dir, `${newId()}.eml`);
      await fs.writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.tmp`, file); // readers never see half a message
    },
  };
}

type Nodemailer = (typeof import("nodemailer"))["default"];

function smtpTransport(nodemailer: Nodemailer, options: SmtpSettings): Transporter {
  return nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    ...(options.user ? { auth: { user: options.user, pass: options.password } } : {}),
  });
}

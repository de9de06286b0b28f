// Outgoing e-mail. The default transport writes each message as an .eml file under DATA_DIR/mail/
// (tests and operators read them there); with the runtime setting mailer.transport = "smtp" it sends.
import type { Settings } from "../config/env.ts";
import type { RuntimeConfig } from "../config/runtime.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Implemented by the accounts issue (nodemailer: file and SMTP transports). */
export function createMailer(_settings: Settings, _config: RuntimeConfig): Mailer {
  return {
    async send() {
      throw new Error("mailer not implemented yet");
    },
  };
}

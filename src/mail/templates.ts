// The messages the server sends: plain text plus a simple HTML alternative. Links are absolute,
// built from the public base URL (BASE_URL), never from the request's Host header.
import { escapeHtml as esc } from "../kernel/escape.ts";
import type { Settings } from "../config/env.ts";
import type { Mail } from "./mailer.ts";

type LinkSettings = Pick<Settings, "baseUrl" | "namespace" | "instanceName">;

interface Recipient {
  id: string;
  nickname: string;
  email: string;
}


function html(title: string, paragraphs: string[], link: { href: string; label: string }) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>
${paragraphs.map((p) => `<p>${esc(p)}</p>`).join("\n")}
<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>
<p>${esc(link.href)}</p>
</body></html>`;
}

export function confirmationLink(settings: Pick<Settings, "baseUrl">, accountId: string, token: string) {
  return `${settings.baseUrl}/api/account/confirm_email/${encodeURIComponent(accountId)}/${encodeURIComponent(token)}`;
}

export function passwordResetLink(settings: Pick<Settings, "baseUrl" | "namespace">, token: string) {
  return `${settings.baseUrl}/api/v1/${settings.namespace}/password_reset/${encodeURIComponent(token)}`;
}

export function confirmationMail(settings: LinkSettings, account: Recipient, token: string): Mail {
  const link = confirmationLink(settings, account.id, token);
  const subject = `${settings.instanceName} account confirmation`;
  const lines = [`Thank you for registering on ${settings.instanceName}, @${account.nickname}.`, "Confirm your e-mail address by opening this link (valid for 7 days):"];
  return {
    to: account.email,
    subject,
    text: `${lines.join("\n")}\n\n${link}\n`,
    html: html(subject, lines, { href: link, label: "Confirm my account" }),
  };
}

export function passwordResetMail(settings: LinkSettings, account: Recipient, token: string): Mail {
  const link = passwordResetLink(settings, token);
  const subject = `Password reset requested at ${settings.instanceName}`;
  const lines = [
    `Someone asked to reset the password of @${account.nickname} on ${settings.instanceName}.`,
    "If it was you, open this link to choose a new password (valid for 24 hours, once):",
  ];
  const ignore = "If it was not you, ignore this message: your password stays as it is.";
  return {
    to: account.email,
    subject,
    text: `${lines.join("\n")}\n\n${link}\n\n${ignore}\n`,
    html: html(subject, [...lines], { href: link, label: "Reset my password" }).replace("</body>", `<p>${esc(ignore)}</p>\n</body>`),
  };
}

/** What the reference server calls the actions in its warning e-mails. */
const WARNING_TITLES: Record<string, string> = {
  none: "You have received a warning",
  disable: "Your account has been disabled",
  sensitive: "Your media will be marked as sensitive",
  silence: "Your account has been limited",
  suspend: "Your account has been suspended",
};

/** A moderator's warning (the reference API's account action with `send_email_notification`). */
export function warningMail(settings: LinkSettings, account: Recipient, warning: { action: string; text: string; statusIds: string[] }): Mail {
  const subject = `${WARNING_TITLES[warning.action] ?? WARNING_TITLES.none} (${settings.instanceName})`;
  const lines = [`@${account.nickname}, the moderators of ${settings.instanceName} have taken an action on your account: ${warning.action === "none" ? "a warning" : warning.action}.`];
  if (warning.text) lines.push(`Their message: ${warning.text}`);
  if (warning.statusIds.length) lines.push(`Posts concerned: ${warning.statusIds.map((id) => `${settings.baseUrl}/notice/${id}`).join(" ")}`);
  const link = `${settings.baseUrl}/`;
  return { to: account.email, subject, text: `${lines.join("\n\n")}\n`, html: html(subject, lines, { href: link, label: settings.instanceName }) };
}

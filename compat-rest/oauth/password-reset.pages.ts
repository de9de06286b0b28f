// The HTML of the e-mailed links: the password reset form and its outcomes, and link failures.
import { escapeHtml as esc } from "../../src/kernel/escape.ts";

export function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.3rem 0}input,button{padding:.5rem;box-sizing:border-box}.error{color:#b00}</style></head>
<body>${body}</body></html>`;
}

export interface ResetForm {
  instanceName: string;
  nickname: string;
  token: string;
  /** where the form posts: /api/v1/<ns>/password_reset */
  action: string;
  error?: string;
}

/** Field names nest under data[...] like the family's form; the endpoint takes flat names too. */
export function resetFormPage(f: ResetForm) {
  return page(
    "Password reset",
    `<h1>${esc(f.instanceName)}</h1>
<h2>Password reset for @${esc(f.nickname)}</h2>
${f.error ? `<p class="error" role="alert">${esc(f.error)}</p>` : ""}
<form method="post" action="${esc(f.action)}">
<input type="hidden" name="data[token]" value="${esc(f.token)}">
<label for="password">New password</label><input id="password" type="password" name="data[password]" autocomplete="new-password" required>
<label for="password_confirmation">Confirm the new password</label><input id="password_confirmation" type="password" name="data[password_confirmation]" autocomplete="new-password" required>
<button type="submit">Reset password</button></form>`,
  );
}

export function resetSuccessPage(instanceName: string) {
  return page("Password changed", `<h1>${esc(instanceName)}</h1><h2>Password changed!</h2><p>You can now sign in with your new password.</p>`);
}

export function invalidTokenPage(message = "Invalid Token") {
  return page("Invalid link", `<h1>${esc(message)}</h1><p class="error">This link is unknown, has expired or was already used.</p>`);
}

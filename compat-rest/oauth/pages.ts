// The HTML of the authorization flow: sign-in + consent form, and the out-of-band code page.
import { escapeHtml as esc } from "../../src/kernel/escape.ts";

export function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.3rem 0}input,button{padding:.5rem;box-sizing:border-box}.error{color:#b00}code{font-size:1.2rem;word-break:break-all}</style></head>
<body>${body}</body></html>`;
}

export interface AuthorizeForm {
  instanceName: string;
  appName: string;
  scopes: string[];
  clientId: string;
  redirectUri: string;
  state?: string;
  signedInAs?: string;
  error?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

export function authorizePage(f: AuthorizeForm) {
  const hidden = (name: string, value: string | undefined) => (value ? `<input type="hidden" name="authorization[${name}]" value="${esc(value)}">` : "");
  const credentials = f.signedInAs
    ? `<p>Signed in as <strong>${esc(f.signedInAs)}</strong>.</p>`
    : `<label for="name">Username or e-mail</label><input id="name" name="authorization[name]" autocomplete="username" required>
<label for="password">Password</label><input id="password" type="password" name="authorization[password]" autocomplete="current-password" required>`;
  return page(
    `Authorize ${f.appName}`,
    `<h1>${esc(f.instanceName)}</h1>
<p><strong>${esc(f.appName)}</strong> asks for access to your account: ${f.scopes.map((s) => `<code>${esc(s)}</code>`).join(" ")}</p>
${f.error ? `<p class="error" role="alert">${esc(f.error)}</p>` : ""}
<form method="post" action="/oauth/authorize">${credentials}
${hidden("client_id", f.clientId)}${hidden("redirect_uri", f.redirectUri)}${hidden("scope", f.scopes.join(" "))}${hidden("state", f.state)}
${hidden("code_challenge", f.codeChallenge)}${hidden("code_challenge_method", f.codeChallengeMethod)}
<button type="submit">Authorize</button></form>`,
  );
}

export function oobCodePage(appName: string, code: string) {
  return page("Authorization code", `<h1>Authorization code</h1><p>Copy this code into ${esc(appName)}:</p><p><code id="code">${esc(code)}</code></p>`);
}

export function errorPage(message: string) {
  return page("Error", `<h1>Error</h1><p class="error">${esc(message)}</p>`);
}

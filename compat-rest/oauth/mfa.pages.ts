// The sign-in page's second step: the form asking for the authenticator's code (or a backup code),
// with the family's field names (mfa[code], mfa[mfa_token], mfa[challenge_type]).
import { escapeHtml as esc } from "../../src/kernel/escape.ts";
import { page } from "./pages.ts";

export interface MfaForm {
  instanceName: string;
  mfaToken: string;
  challengeType: "totp" | "recovery";
  /** PKCE of the authorization request, carried to the code that is issued after the challenge */
  codeChallenge?: string;
  codeChallengeMethod?: string;
  error?: string;
}

export function mfaPage(f: MfaForm) {
  const hidden = (name: string, value: string | undefined) => (value ? `<input type="hidden" name="mfa[${name}]" value="${esc(value)}">` : "");
  const totp = f.challengeType === "totp";
  const input = totp
    ? `<label for="code">Authentication code</label><input id="code" name="mfa[code]" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autofocus>`
    : `<label for="code">Recovery code</label><input id="code" name="mfa[code]" autocomplete="off" spellcheck="false" required autofocus>`;
  const other = new URLSearchParams({ mfa_token: f.mfaToken, challenge_type: totp ? "recovery" : "totp" });
  if (f.codeChallenge) other.set("code_challenge", f.codeChallenge);
  if (f.codeChallengeMethod) other.set("code_challenge_method", f.codeChallengeMethod);
  return page(
    "Two-factor authentication",
    `<h1>${esc(f.instanceName)}</h1>
<h2>Two-factor authentication</h2>
${f.error ? `<p class="error" role="alert">${esc(f.error)}</p>` : ""}
<form method="post" action="/oauth/mfa/verify">${input}
${hidden("mfa_token", f.mfaToken)}${hidden("challenge_type", f.challengeType)}${hidden("code_challenge", f.codeChallenge)}${hidden("code_challenge_method", f.codeChallengeMethod)}
<button type="submit">Verify</button></form>
<p><a href="/oauth/mfa?${esc(other.toString())}">${totp ? "Enter a two-factor recovery code" : "Enter a code from your authenticator app"}</a></p>`,
  );
}

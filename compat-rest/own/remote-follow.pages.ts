// The HTML of the family's remote-follow pages: following an account from this server
// (`/ostatus_subscribe`, signing in with the form) and following a local account from one's own server
// (`/main/ostatus`, asking for one's handle). Plain forms, no JavaScript.
import { escapeHtml as esc } from "../../src/kernel/escape.ts";
import { page } from "../oauth/pages.ts";

export interface Followee {
  id: string;
  /** nickname as shown (user or user@host) */
  acct: string;
  displayName: string;
  avatar: string;
}

const card = (f: Followee) =>
  `<p><img src="${esc(f.avatar)}" alt="" width="48" height="48"> <strong>${esc(f.displayName || f.acct)}</strong> @${esc(f.acct)}</p>`;
const alert = (error?: string) => (error ? `<p class="error" role="alert">${esc(error)}</p>` : "");

/** Sign in and follow: the family's `follow_login` form (field names `authorization[...]`), with the second factor when asked. */
export function followLoginPage(instanceName: string, followee: Followee, opts: { error?: string; askCode?: boolean } = {}) {
  const code = opts.askCode
    ? `<label for="code">Two-factor code (or a backup code)</label><input id="code" name="authorization[code]" autocomplete="one-time-code" required>`
    : "";
  return page(
    `Follow @${followee.acct}`,
    `<h1>${esc(instanceName)}</h1><h2>Remote follow</h2>${card(followee)}${alert(opts.error)}
<form method="post" action="/ostatus_subscribe">
<input type="hidden" name="authorization[id]" value="${esc(followee.id)}">
<label for="name">Username or e-mail</label><input id="name" name="authorization[name]" autocomplete="username" required>
<label for="password">Password</label><input id="password" type="password" name="authorization[password]" autocomplete="current-password" required>
${code}<button type="submit">Authorize and follow</button></form>`,
  );
}

export function remoteFollowErrorPage(message: string) {
  return page("Remote follow", `<h1>Remote follow</h1>${alert(message)}`);
}

/** The family's `subscribe` form: a visitor gives their own handle to follow a local account (or interact with a status) from their server. */
export function subscribePage(instanceName: string, target: { nickname: string; avatar?: string; statusId?: string }, error?: string) {
  const hidden = target.statusId
    ? `<input type="hidden" name="status[status_id]" value="${esc(target.statusId)}">`
    : `<input type="hidden" name="user[nickname]" value="${esc(target.nickname)}">`;
  const field = target.statusId ? "status[profile]" : "user[profile]";
  return page(
    target.statusId ? "Interact" : `Follow @${target.nickname}`,
    `<h1>${esc(instanceName)}</h1><h2>${target.statusId ? "Interact with this post" : `Remotely follow @${esc(target.nickname)}`}</h2>
${target.avatar ? `<p><img src="${esc(target.avatar)}" alt="" width="48" height="48"></p>` : ""}${alert(error)}
<form method="post" action="/main/ostatus">${hidden}
<label for="profile">Your account ID, e.g. lain@quitter.se</label><input id="profile" name="${field}" autocomplete="username" required>
<button type="submit">${target.statusId ? "Interact" : "Follow"}</button></form>`,
  );
}

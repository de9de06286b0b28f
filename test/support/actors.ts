// The people of an integration test: local accounts (plain, moderator, admin) signed in through the
// password grant, and posting, which most set-ups do before the case under test.
// One harness instead of the copy each test file used to carry (test helper, not a test).
import { passwordToken, type TestServer } from "./server.ts";

/** the scopes of an ordinary client */
export const USER_SCOPES = "read write follow push";
/** the scopes the admin tests sign in with (staff and plain users alike, so that roles decide) */
export const ADMIN_SCOPES = "read write follow push admin";

export interface Role {
  admin?: boolean;
  moderator?: boolean;
}

export interface User {
  id: string;
  nickname: string;
  apId: string;
  token: string;
  /** the Bearer header of `token` */
  auth: { authorization: string };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A local account `nickname` (with `role`) holding a password-grant token of `scope`. */
export async function user(server: TestServer, nickname: string, scope = USER_SCOPES, role: Role = {}): Promise<User> {
  const account = await server.createUser(nickname, role);
  const { access_token } = await passwordToken(server, nickname, scope);
  return { id: account.id, nickname, apId: account.apId, token: access_token, auth: bearer(access_token) };
}

/** An admin with admin-scoped token. */
export const admin = (server: TestServer, nickname = "ada", scope = ADMIN_SCOPES) => user(server, nickname, scope, { admin: true });

/** A moderator with admin-scoped token. */
export const moderator = (server: TestServer, nickname = "mo", scope = ADMIN_SCOPES) => user(server, nickname, scope, { moderator: true });

export interface Cast {
  /** account ids by nickname */
  id: Record<string, string>;
  /** access tokens by nickname (tests may add more, e.g. a narrower token of the same account) */
  token: Record<string, string>;
  users: Record<string, User>;
}

/**
 * The accounts of a test by nickname, created in the order given, each with `role` and a token of
 * `scope` (admin scopes by default: the admin tests give everyone the scopes so that roles and
 * privileges decide), e.g. `cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} })`.
 */
export async function cast(server: TestServer, roles: Record<string, Role>, scope = ADMIN_SCOPES): Promise<Cast> {
  const people: Cast = { id: {}, token: {}, users: {} };
  for (const [nickname, role] of Object.entries(roles)) {
    const u = await user(server, nickname, scope, role);
    people.id[nickname] = u.id;
    people.token[nickname] = u.token;
    people.users[nickname] = u;
  }
  return people;
}

/** Posts a status through the REST API as `who` (a user or a token); its id. Throws unless 200. */
export async function post(server: TestServer, who: User | string, body: string | Record<string, unknown>): Promise<string> {
  const token = typeof who === "string" ? who : who.token;
  const res = await server.fetch("/api/v1/statuses", { json: typeof body === "string" ? { status: body } : body, headers: bearer(token) });
  if (res.status !== 200) throw new Error(`posting failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}


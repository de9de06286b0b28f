// Secrets never reach the logs: a real process at LOG_LEVEL=debug is signed in to (right and wrong
// passwords), called with its tokens, a bogus token and the admin token, asked for a password reset, and
// made to fail (its database cut away); nothing it printed contains any of those secrets.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test, vi } from "vitest";
import { PROCESS_ADMIN_TOKEN, serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe("secrets are not logged", () => {
  const suite = serverPerSuite({ viaProxy: true, env: { LOG_LEVEL: "debug" } });

  test("passwords, tokens, reset links and the admin token stay out of the output", async () => {
    const { server, proxy } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    const secrets = [PROCESS_ADMIN_TOKEN, "secret-password", alice.auth.authorization.slice(7)];
    const app = await (await fetch(`${server.url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "logs", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" }) })).json();
    secrets.push(app.client_secret);
    const grant = (password: string) => fetch(`${server.url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "alice", password, scope: "read" }) });
    expect((await grant("Wrong-Guess-0xDEADBEEF")).status).toBeGreaterThanOrEqual(400);
    secrets.push("Wrong-Guess-0xDEADBEEF");
    const token = await (await grant("secret-password")).json();
    secrets.push(token.access_token, token.refresh_token);
    expect((await fetch(`${server.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: "Bearer bogus-token-0123456789" } })).status).toBe(401);
    secrets.push("bogus-token-0123456789");
    expect((await fetch(`${server.url}/api/v1/ext/admin/users`, { headers: { "x-admin-token": PROCESS_ADMIN_TOKEN } })).status).toBe(200);
    expect((await fetch(`${server.url}/auth/password?email=alice@example.test`, { method: "POST" })).status).toBeLessThan(300);
    const mail = await waitFor(async () => {
      const dir = path.join(server.dataDir, "mail");
      const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      return files.length ? fs.readFileSync(path.join(dir, files[0]), "utf8") : null;
    }, "the reset mail", { timeoutMs: 30_000 });
    const resetToken = /\/api\/v1\/ext\/password_reset\/([A-Za-z0-9_-]+)/.exec(mail.replace(/=\r?\n/g, ""));
    expect(resetToken, "the reset link in the mail").not.toBe(null);
    secrets.push(resetToken![1]);

    // failures log errors: the database cut under a signed-in request
    await proxy.cut();
    expect((await fetch(`${server.url}/api/v1/timelines/home`, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(503);
    await proxy.restore();
    await waitFor(async () => (await fetch(`${server.url}/api/v1/ext/healthcheck`)).status === 200, "recovery", { timeoutMs: 30_000 });

    const output = server.output();
    expect(output.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(output.includes(secret), `a secret of ${secret.length} characters appears in the logs`).toBe(false);
  });
});

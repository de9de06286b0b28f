// Multi-factor settings over GraphQL: the same operations and scopes as REST, with a TOTP code
// computed here from the key the setup mutation answers.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateTOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL multi-factor settings on %s", (kind) => {
  let server: TestServer;
  let token: string;
  let readOnly: string;
  const gql = (query: string, variables?: Record<string, unknown>, bearer = token) =>
    server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.json());
  const account = () => server.services.db.account.findFirstOrThrow({ where: { nickname: "noa" } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("noa");
    token = (await passwordToken(server, "noa", "read write")).access_token;
    readOnly = (await passwordToken(server, "noa", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("setup, confirm, status, backup codes and disable run the REST operations", async () => {
    expect((await gql("{ mfaSettings { enabled totp } }")).data.mfaSettings).toEqual({ enabled: false, totp: false });
    const setup = (await gql("mutation { setupTotp { key provisioningUri } }")).data.setupTotp;
    expect(setup.provisioningUri).toMatch(/^otpauth:\/\/totp\//);
    expect((await account()).mfaTotpSecret).toBe(setup.key);

    const wrong = await gql("mutation($c: String!) { confirmTotp(password: \"nope\", code: $c) { enabled } }", { c: "000000" });
    expect(wrong.errors[0].message).toBe("Invalid password.");
    const code = generateTOTP(decodeBase32IgnorePadding(setup.key), 30, 6);
    const confirmed = await gql("mutation($c: String!) { confirmTotp(password: \"secret-password\", code: $c) { enabled totp } }", { c: code });
    expect(confirmed.data.confirmTotp).toEqual({ enabled: true, totp: true });
    expect((await account()).mfaEnabled).toBe(true);
    expect((await gql("{ mfaSettings { enabled totp } }", undefined, readOnly)).data.mfaSettings).toEqual({ enabled: true, totp: true });

    const codes = (await gql("mutation { generateMfaBackupCodes }")).data.generateMfaBackupCodes;
    expect(codes).toHaveLength(5);
    expect((await account()).mfaBackupCodes).toHaveLength(5);

    const disabled = await gql('mutation { disableTotp(password: "secret-password") { enabled totp } }');
    expect(disabled.data.disableTotp).toEqual({ enabled: false, totp: false });
    expect(await account()).toMatchObject({ mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] });
  });

  test("mutations need write:security, like REST", async () => {
    const refused = await gql("mutation { setupTotp { key } }", undefined, readOnly);
    expect(refused.errors[0].message).toMatch(/not authorized/i);
    expect((await account()).mfaTotpSecret).toBeNull();
    const anonymous = await server.fetch("/graphql", { json: { query: "{ mfaSettings { enabled } }" } }).then((r) => r.json());
    expect(anonymous.errors[0].message).toMatch(/not authorized/i);
  });
});

// Authorization declared on the operation (issue 20, criterion 4) holds whichever surface calls it: the
// operation itself refuses a staff member lacking its privilege (so the CLI, federation and tRPC get the
// check too), a system context passes, and the GraphQL field built from the same declaration refuses the
// same viewer. Changing `access` on `activateUsers` alone changes every answer below.
import { graphql } from "graphql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activateUsers } from "../../src/domain/accounts/admin-users.ops.ts";
import { ALL_SCOPES, makeCtx, systemCtx, type Ctx } from "../../src/domain/context.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import { schema } from "../../src/graphql/schema.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("an operation's access, enforced by the operation", () => {
  let server: TestServer;
  let moderator: Account;
  let admin: Account;
  const as = (account: Account): Ctx => makeCtx(server.services, { account, app: null, scopes: ALL_SCOPES, via: "session" });
  const deactivated = async () => (await server.services.db.account.findUniqueOrThrow({ where: { nickname: "target" } })).deactivated;

  beforeAll(async () => {
    server = await startTestServer("pglite");
    moderator = await server.createUser("mod", { moderator: true });
    admin = await server.createUser("boss", { admin: true });
    await server.createUser("target");
    await server.services.db.account.update({ where: { nickname: "target" }, data: { deactivated: true } });
  }, 120_000);
  afterAll(() => server?.close());

  test("the declaration: staff holding users_manage_activation_state, with an admin:write:accounts token", () => {
    expect(activateUsers.access).toEqual({ scopes: ["admin:write:accounts"], privilege: "users_manage_activation_state" });
  });

  test("called directly, the operation refuses a moderator without the privilege (the default moderator privileges lack it)", async () => {
    await expect(activateUsers(as(moderator), { nicknames: ["target"] })).rejects.toMatchObject({ kind: "forbidden", message: "User isn't privileged." });
    expect(await deactivated()).toBe(true);
  });

  test("GraphQL refuses the same moderator, and nothing changes", async () => {
    const r = await graphql({ schema, source: 'mutation { adminActivateUsers(nicknames: ["target"]) { nickname } }', contextValue: as(moderator) });
    expect(r.data).toBeNull();
    expect(r.errors?.[0]?.message).toMatch(/not authorized|privileged/i);
    expect(await deactivated()).toBe(true);
  });

  test("the system context (CLI, jobs, federation) and an admin pass", async () => {
    const [byAdmin] = await activateUsers(as(admin), { nicknames: ["target"] });
    expect(byAdmin!.deactivated).toBe(false);
    await server.services.db.account.update({ where: { nickname: "target" }, data: { deactivated: true } });
    const [bySystem] = await activateUsers(systemCtx(server.services), { nicknames: ["target"] });
    expect(bySystem!.deactivated).toBe(false);
    expect(await deactivated()).toBe(false);
  });
});

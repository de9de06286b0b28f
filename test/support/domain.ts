// Operation-level tests (test/domain/*.integration.test.ts): the real services on a fresh database
// (PGlite unless told), operations called directly with a context per viewer; no HTTP (test helper).
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { anonymous, makeCtx, systemCtx, type Ctx, type Services } from "../../src/domain/context.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import type { DbKind } from "./databases.ts";
import type { Role } from "./actors.ts";
import { startTestServer } from "./server.ts";

/** what an ordinary client's token grants */
const USER_SCOPES = ["read", "write", "follow", "push"] as const;

export interface DomainWorld {
  services: Services;
  db: Services["db"];
  /** the system itself (CLI, jobs): every scope, no account */
  system: Ctx;
  /** nobody signed in */
  anonymous: Ctx;
  /** a new local account `nickname` with `role` */
  account(nickname: string, role?: Role): Promise<Account>;
  /** `account` signed in with a token of `scopes` (an ordinary client's, plus admin for staff); the account is re-read so its flags are current */
  as(account: Account, scopes?: readonly string[]): Promise<Ctx>;
  close(): Promise<void>;
}

export async function domainWorld(kind: DbKind = "pglite"): Promise<DomainWorld> {
  // the server's start-up builds the services (migrations, runtime config, jobs, bus); its HTTP side goes unused
  const server = await startTestServer(kind);
  const services = server.services;
  return {
    services,
    db: services.db,
    system: systemCtx(services),
    anonymous: makeCtx(services, anonymous),
    account: (nickname, role = {}) =>
      createLocalAccount(systemCtx(services), { nickname, email: `${nickname}@example.test`, password: "secret-password", admin: role.admin ?? false, moderator: role.moderator ?? false }),
    async as(account, scopes) {
      const current = await services.db.account.findUniqueOrThrow({ where: { id: account.id } });
      const granted = scopes ?? (current.isAdmin || current.isModerator ? [...USER_SCOPES, "admin"] : USER_SCOPES);
      return makeCtx(services, { account: current, app: null, scopes: granted, via: "token" });
    },
    close: () => server.close(),
  };
}

// `npm run ctl -- <command>`: administration from the shell. Talks to the running server over tRPC
// when there is one (the embedded database admits one process), otherwise opens the database itself.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTRPCClient, httpLink } from "@trpc/client";
import { loadSettings, type Settings } from "../config/env.ts";
import { createLocalAccount, resetPassword, setRoles } from "../domain/accounts/accounts.ops.ts";
import { systemCtx } from "../domain/context.ts";
import { DomainError } from "../domain/errors.ts";
import type { AppRouter } from "../trpc/router.ts";

const USAGE = `usage:
  ctl user new <nickname> <email> --password <pw> [--admin] [--moderator]
  ctl user set <nickname> [--admin|--no-admin] [--moderator|--no-moderator]
  ctl user reset-password <nickname> [--password <pw>]`;

type Summary = { nickname: string; isAdmin: boolean; isModerator: boolean };
interface Backend {
  userNew(input: Parameters<typeof createLocalAccount>[1]): Promise<Summary>;
  userSet(input: Parameters<typeof setRoles>[1]): Promise<Summary>;
  resetPassword(input: Parameters<typeof resetPassword>[1]): Promise<{ nickname: string; password: string }>;
  close(): Promise<void>;
  via: string;
}

async function remoteBackend(settings: Settings): Promise<Backend | null> {
  const file = path.join(settings.dataDir, "server.json");
  if (!fs.existsSync(file)) return null;
  const { url, ctlSecret } = JSON.parse(fs.readFileSync(file, "utf8"));
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, headers: { "x-ctl-secret": ctlSecret } })] });
  try {
    await client.ctl.ping.query();
  } catch (error: any) {
    if (error?.data?.code === "UNAUTHORIZED") throw new Error(`the server at ${url} refused ctl credentials`);
    return null; // a stale file from a server that is gone
  }
  return {
    via: `server at ${url}`,
    userNew: (input) => client.ctl.userNew.mutate(input),
    userSet: (input) => client.ctl.userSet.mutate(input),
    resetPassword: (input) => client.ctl.resetPassword.mutate(input),
    close: async () => {},
  };
}

async function localBackend(settings: Settings): Promise<Backend> {
  const { openDatabase } = await import("../db/client.ts");
  const { createJobQueue, jobsPrefix } = await import("../jobs/index.ts");
  const { createBus } = await import("../realtime/bus.ts");
  const { channelPrefix } = await import("../realtime/redis-bus.ts");
  const { loadRuntimeConfig } = await import("../config/runtime.ts");
  const { createMailer } = await import("../mail/mailer.ts");
  fs.mkdirSync(settings.dataDir, { recursive: true });
  const database = await openDatabase(settings.databaseUrl);
  await database.migrate();
  const jobs = createJobQueue({ prisma: database.prisma, redisUrl: settings.redisUrl, redis: { prefix: jobsPrefix(settings) } }); // enqueue only, never started
  const config = await loadRuntimeConfig(database.prisma, settings);
  // with Redis, what ctl publishes reaches the running servers as their own events do
  const bus = createBus(settings.redisUrl ? { url: settings.redisUrl, prefix: channelPrefix(settings) } : undefined);
  const ctx = systemCtx({ db: database.prisma, database, settings, config, jobs, mailer: createMailer(settings, config), bus, clock: () => new Date() });
  return {
    via: `database ${database.kind}`,
    userNew: (input) => createLocalAccount(ctx, input),
    userSet: (input) => setRoles(ctx, input),
    resetPassword: (input) => resetPassword(ctx, input),
    close: async () => {
      await jobs.stop();
      await bus.close();
      await database.close();
    },
  };
}

const roles = (u: Summary) => [u.isAdmin && "admin", u.isModerator && "moderator"].filter(Boolean).join(", ") || "no roles";

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: { password: { type: "string" }, admin: { type: "boolean" }, moderator: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  const [area, command, ...rest] = positionals;
  if (values.help || area !== "user" || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const settings = loadSettings();
  const backend = (await remoteBackend(settings)) ?? (await localBackend(settings));
  try {
    if (command === "new") {
      const [nickname, email] = rest;
      if (!nickname || !email || !values.password) throw new Error("user new needs <nickname> <email> --password <pw>");
      const u = await backend.userNew({ nickname, email, password: values.password, admin: values.admin ?? false, moderator: values.moderator ?? false });
      console.log(`created user ${u.nickname} (${roles(u)}) via ${backend.via}`);
    } else if (command === "set") {
      const [nickname] = rest;
      if (!nickname || (values.admin === undefined && values.moderator === undefined)) throw new Error("user set needs <nickname> and --[no-]admin or --[no-]moderator");
      const u = await backend.userSet({ nickname, admin: values.admin, moderator: values.moderator });
      console.log(`updated user ${u.nickname}: ${roles(u)}`);
    } else if (command === "reset-password") {
      const [nickname] = rest;
      if (!nickname) throw new Error("user reset-password needs <nickname>");
      const r = await backend.resetPassword({ nickname, password: values.password });
      console.log(values.password ? `password of ${r.nickname} changed` : `new password for ${r.nickname}: ${r.password}`);
    } else {
      console.log(USAGE);
      return 2;
    }
    return 0;
  } finally {
    await backend.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error: any) {
  console.error(`error: ${error instanceof DomainError || error?.name === "TRPCClientError" || error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
process.exit(); // the pg pool would keep the process alive

// `npm run ctl -- <area> <command>`: administration from the shell. Each command calls the operation the
// admin API calls (src/trpc/ctl-ops.ts), through the running server over tRPC when there is one (the
// embedded database admits one process), otherwise on the database itself (src/cli/backend.ts).
import { parseArgs } from "node:util";
import { loadSettings } from "../config/env.ts";
import { DomainError } from "../kernel/errors.ts";
import { openBackend, type Backend } from "./backend.ts";
import { UsageError, type Command } from "./command.ts";
import { configCommands } from "./commands/config.ts";
import { dbCommands } from "./commands/db.ts";
import { emojiCommands } from "./commands/emoji.ts";
import { instanceCommands } from "./commands/instances.ts";
import { inviteCommands } from "./commands/invites.ts";
import { relayCommands } from "./commands/relays.ts";
import { taskCommands } from "./commands/tasks.ts";
import { userCommands } from "./commands/users.ts";
import { helpText } from "./help.ts";
import { createOutput } from "./output.ts";

const AREAS = {
  user: { summary: "local and remote users", commands: userCommands },
  invite: { summary: "registration invites", commands: inviteCommands },
  emoji: { summary: "emoji packs", commands: emojiCommands },
  instance: { summary: "remote instances", commands: instanceCommands },
  relay: { summary: "relays", commands: relayCommands },
  config: { summary: "runtime configuration stored in the database", commands: configCommands },
  db: { summary: "database maintenance", commands: dbCommands },
  task: { summary: "long tasks and their progress", commands: taskCommands },
};
/** plural spellings are accepted too (`ctl users list`) */
const ALIASES: Record<string, keyof typeof AREAS> = { users: "user", invites: "invite", instances: "instance", relays: "relay", tasks: "task" };

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  offline: { type: "boolean" },
  password: { type: "string" },
  admin: { type: "boolean" },
  moderator: { type: "boolean" },
  link: { type: "boolean" },
  query: { type: "string" },
  filter: { type: "string", multiple: true },
  page: { type: "string" },
  "page-size": { type: "string" },
  "max-use": { type: "string" },
  "expires-at": { type: "string" },
  name: { type: "string" },
  remote: { type: "string" },
  as: { type: "string" },
  unreachable: { type: "boolean" },
  force: { type: "boolean" },
  full: { type: "boolean" },
  days: { type: "string" },
  "only-db": { type: "boolean" },
  "dry-run": { type: "boolean" },
} as const;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, allowNegative: true, options: OPTIONS });
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : error}\n(ctl --help lists every command)`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [areaWord, name, ...args] = positionals;
  const areaName = ALIASES[areaWord] ?? areaWord;
  const area = AREAS[areaName as keyof typeof AREAS];
  const command: Command | undefined = area?.commands[name];
  if (!command) {
    if (values.help || !areaWord) {
      console.log(helpText(AREAS));
      return values.help ? 0 : 2;
    }
    console.error(area ? `unknown command: ${areaName} ${name ?? ""}\n${helpText({ [areaName]: area })}` : `unknown area: ${areaWord} (ctl --help lists every command)`);
    return 2;
  }
  const usage = `usage: ctl ${areaName} ${name} ${command.usage}`.trimEnd();
  if (values.help) {
    console.log(`${usage}\n  ${command.summary}`);
    return 0;
  }
  let backend: Backend | undefined;
  try {
    await command.run({
      args,
      opts: values,
      out: createOutput(values.json ?? false),
      backend: async () => (backend ??= await openBackend(loadSettings(), { offline: values.offline })),
    });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n${usage}`);
      return 2;
    }
    throw error;
  } finally {
    await backend?.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error: any) {
  console.error(`error: ${error instanceof DomainError || error?.name === "TRPCClientError" || error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
process.exit(); // the pg pool would keep the process alive

// `ctl --help`: every command, generated from the command tables so it cannot fall behind them.
import type { Command } from "./command.ts";

export function helpText(areas: Record<string, { summary: string; commands: Record<string, Command> }>): string {
  const lines = [
    "usage: npm run ctl -- <area> <command> [arguments] [options]",
    "",
    "Runs through the running server (tRPC, found through DATA_DIR/server.json) when there is one, otherwise",
    "opens the database itself (DATABASE_URL, or the embedded database in DATA_DIR). --offline forces the latter.",
    "Long tasks (instance purge/refetch, db prune) show progress and resume when run again. See docs/cli.md.",
    "",
    "global options: --json (one JSON document on stdout)  --offline  -h, --help",
    "exit codes: 0 done, 1 the operation failed, 2 the command line is wrong",
  ];
  for (const [area, { summary, commands }] of Object.entries(areas)) {
    lines.push("", `${area} — ${summary}`);
    for (const [name, c] of Object.entries(commands)) lines.push(`  ctl ${area} ${name} ${c.usage}`.trimEnd(), `      ${c.summary}`);
  }
  return lines.join("\n");
}

// The shape of a ctl command: its usage line, what it does, and where it runs (see docs/cli.md).
import type { Backend } from "./backend.ts";
import type { Output } from "./output.ts";

export interface Invocation {
  /** positionals after the area and command words */
  args: string[];
  /** parsed options (src/cli/options.ts) */
  opts: Record<string, string | boolean | string[] | undefined>;
  out: Output;
  /** opened on first use, so --help and usage errors never touch the database */
  backend(): Promise<Backend>;
}

export interface Command {
  usage: string;
  summary: string;
  run(inv: Invocation): Promise<void>;
}

/** A mistake in the command line: exit code 2, with the command's usage. */
export class UsageError extends Error {}

/** The positionals a command needs, or a UsageError naming them. */
export function need(inv: Invocation, count: number, what: string): string[] {
  if (inv.args.length < count) throw new UsageError(`missing ${what}`);
  return inv.args;
}

export const str = (inv: Invocation, name: string) => (typeof inv.opts[name] === "string" ? (inv.opts[name] as string) : undefined);
export const flag = (inv: Invocation, name: string) => (typeof inv.opts[name] === "boolean" ? (inv.opts[name] as boolean) : undefined);
export function int(inv: Invocation, name: string): number | undefined {
  const raw = str(inv, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  return Number(raw);
}

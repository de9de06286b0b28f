// One cache of a kind per server: tests run several servers in one process, each with its own database,
// and a server is known by its bus. Where no cache was installed (a context made without the server's
// wiring, src/domain/row-caches.ts), the answer is an "off" cache that stores nothing.
import type { Bus } from "../realtime/bus.ts";
import type { Ctx } from "./context.ts";

export function perServer<C>(off: C) {
  const caches = new WeakMap<Bus, C>();
  return {
    /** this server's cache, or the off one */
    of: (ctx: Pick<Ctx, "bus">): C => (ctx.bus && caches.get(ctx.bus)) || off,
    /** makes `cache` the cache of the server on `bus` */
    install: (bus: Bus, cache: C): C => (caches.set(bus, cache), cache),
  };
}

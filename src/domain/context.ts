// Building the context every domain operation receives. Its types live in src/kernel/context.ts (re-exported
// here), so code below the domain names them without loading it.
import { ALL_SCOPES, anonymous, type Ctx, type Services, type Viewer } from "../kernel/context.ts";
import { createLoaders, type Loaders } from "./loaders.ts";

export { ALL_SCOPES, anonymous };
export type { Ctx, Services, Viewer };

/**
 * A context for one request (or job). The loaders are created when first used: most requests read one
 * or two of them, or none (writes, health checks), and need not build every DataLoader. Assigning
 * `ctx.loaders` replaces them (a subscription starts each event with fresh ones).
 */
export function makeCtx(services: Services, viewer: Viewer = anonymous): Ctx {
  const ctx = { ...services, viewer } as Ctx;
  let loaders: Loaders | undefined;
  // enumerable, so `{ ...ctx }` carries the loaders along as a plain property did
  Object.defineProperty(ctx, "loaders", {
    enumerable: true,
    configurable: true,
    get: () => (loaders ??= createLoaders(ctx)),
    set: (value: Loaders) => void (loaders = value),
  });
  return ctx;
}

/** A context acting as the system itself (CLI, jobs): every scope, no account. */
export function systemCtx(services: Services): Ctx {
  return makeCtx(services, { account: null, app: null, scopes: ALL_SCOPES, via: "admin_token" });
}

// Fedify makes its requests (WebFinger, actor and key fetches, deliveries) with the global `fetch`.
// So that they too go through the one guarded client, every entry into Fedify runs inside
// `withGuard(services, …)`, and the global fetch, wrapped once per process, sends requests made in
// such a scope through `guardedFetch` with that server's settings. Requests made outside a scope (the
// tests' own clients, libraries that are not federation) are left to the original fetch. Several
// servers in one process (the tests) each keep their own settings: the scope carries them.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Ctx } from "../kernel/context.ts";
import { guardedFetch, GuardedFetchError, type GuardedInit } from "./guarded-fetch.ts";

type GuardCtx = Pick<Ctx, "config" | "settings">;

const scope = new AsyncLocalStorage<GuardCtx>();
let originalFetch: typeof fetch | undefined;

/** Runs `fn` with every global fetch it makes going through the guard of `ctx`'s server. */
export function withGuard<T>(ctx: GuardCtx, fn: () => T): T {
  installFetchRouter();
  return scope.run(ctx, fn);
}

function installFetchRouter() {
  if (originalFetch) return;
  originalFetch = globalThis.fetch;
  const original = originalFetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const ctx = scope.getStore();
    return ctx ? guardedWebFetch(ctx, input, init) : original(input, init);
  }) as typeof fetch;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE"]);

/** `fetch` semantics on top of `guardedFetch`: a Response for any HTTP answer, a TypeError when no answer came. */
export async function guardedWebFetch(ctx: GuardCtx, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const method = request.method.toUpperCase();
  if (!METHODS.has(method)) throw new TypeError(`method ${method} is not sent by the guarded client`);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => (headers[key] = value));
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer());
  const guardedInit: GuardedInit = { method: method as GuardedInit["method"], headers, body, followRedirects: request.redirect !== "manual" };
  try {
    const res = await guardedFetch(ctx, request.url, guardedInit);
    const nullBody = method === "HEAD" || [101, 204, 205, 304].includes(res.status);
    const response = new Response(nullBody ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
    // Response.url is read-only and empty for constructed responses; Fedify reads it after redirects
    Object.defineProperty(response, "url", { value: res.url });
    return response;
  } catch (error) {
    // fetch reports network failures as TypeError; the guard's reason stays readable in the message and cause
    if (error instanceof GuardedFetchError) throw new TypeError(error.message, { cause: error });
    throw error;
  }
}

// Sign-in, sign-out and who-am-I through the server's tRPC session procedures (cookie session).
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "../../src/trpc/router.ts";
import { CSRF_HEADERS } from "./client.ts";

const trpc = createTRPCClient<AppRouter>({
  links: [httpLink({ url: "/trpc", headers: () => CSRF_HEADERS, fetch: (url, init) => fetch(url, { ...(init as RequestInit), credentials: "same-origin" }) })],
});

export interface Me {
  id: string;
  nickname: string;
  isAdmin: boolean;
  isModerator: boolean;
}

export async function whoAmI(): Promise<Me | null> {
  return trpc.session.me.query();
}

export async function signIn(username: string, password: string, code?: string): Promise<Me> {
  return trpc.session.signIn.mutate({ username, password, code: code || undefined, staffOnly: true });
}

export async function signOut(): Promise<void> {
  await trpc.session.signOut.mutate();
}

export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

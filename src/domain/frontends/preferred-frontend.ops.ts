// The later family's frontend switcher: a browser may pick which installed web client `/` serves,
// kept in its `preferred_frontend` cookie (set by the HTTP layer). Choices are written as the family
// writes its `frontends.pickable` list, "name/ref"; here they are every installed frontend build
// (DATA_DIR/frontends/<name>/<ref> holding an index.html, from admin frontends install) except the
// configured admin frontend, which is not a client for `/` (docs/compatibility.md).
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Ctx, Services } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const PREFERRED_FRONTEND_COOKIE = "preferred_frontend";

function subdirs(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && SAFE_SEGMENT.test(e.name)).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

function adminFrontendName(services: Pick<Services, "config">): string | undefined {
  const name = services.config.get("frontends", "admin").name;
  return typeof name === "string" ? name : undefined;
}

/** The folder a "name/ref" choice is served from, when it is a pickable installed frontend. */
export function pickableFrontendDir(services: Pick<Services, "settings" | "config">, choice: string | undefined): string | null {
  const [name, ref, ...rest] = (choice ?? "").split("/");
  if (rest.length || !name || !ref || !SAFE_SEGMENT.test(name) || !SAFE_SEGMENT.test(ref) || name === adminFrontendName(services)) return null;
  const dir = path.join(services.settings.dataDir, "frontends", name, ref);
  return fs.existsSync(path.join(dir, "index.html")) ? dir : null;
}

/** Every pickable installed frontend, "name/ref", sorted. */
export function pickableFrontends(services: Pick<Services, "settings" | "config">): string[] {
  const root = path.join(services.settings.dataDir, "frontends");
  const admin = adminFrontendName(services);
  return subdirs(root)
    .filter((name) => name !== admin)
    .flatMap((name) => subdirs(path.join(root, name)).map((ref) => `${name}/${ref}`))
    .filter((choice) => pickableFrontendDir(services, choice) !== null);
}

// Anyone may list and choose (the family's routes take any or no token): the choice only names what
// this browser is served at `/`.
export const availableFrontends = operation({
  name: "frontends.available",
  access: "public",
  input: z.object({}),
  run: async (ctx: Ctx) => pickableFrontends(ctx),
});

export const choosePreferredFrontend = operation({
  name: "frontends.choosePreferred",
  access: "public",
  input: z.object({ frontend_name: z.string() }),
  async run(ctx: Ctx, input) {
    if (!pickableFrontendDir(ctx, input.frontend_name)) throw Invalid(`Frontend ${input.frontend_name} is not available`, { frontend_name: "is not an installed frontend" });
    return { frontend_name: input.frontend_name };
  },
});

// Admin API: a relay the instance follows.
import type { Relay } from "../../src/generated/prisma/client.ts";

export const renderRelay = (r: Relay) => ({ actor: r.actor, followed_back: r.followedBack });

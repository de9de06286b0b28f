// GET /api/v1/instance in the reference shape with the family's extras.
import type { Settings } from "../../src/config/env.ts";
import { API_LEVEL } from "../../src/domain/instance/instance.ops.ts";

type Info = Awaited<ReturnType<typeof import("../../src/domain/instance/instance.ops.ts").instanceInfo>>;

/** Clients recognise the family by "(compatible; <Name> x.y.z)"; the name follows the namespace word. */
export function versionString(settings: Settings, softwareVersion: string) {
  const name = settings.namespace[0].toUpperCase() + settings.namespace.slice(1);
  return `${API_LEVEL} (compatible; ${name} ${softwareVersion})`;
}

export function renderInstance(settings: Settings, info: Info) {
  return {
    uri: info.domain,
    title: info.title,
    short_description: "",
    description: "",
    email: info.email,
    version: versionString(settings, info.softwareVersion),
    urls: { streaming_api: info.baseUrl.replace(/^http/, "ws") },
    stats: { user_count: info.userCount, status_count: 0, domain_count: 0 },
    thumbnail: `${info.baseUrl}/instance/thumbnail.jpeg`,
    languages: ["en"],
    registrations: info.registrationsOpen,
    approval_required: false,
    invites_enabled: false,
    contact_account: null,
    rules: [],
    [settings.namespace]: { metadata: { features: [], federation: { enabled: true }, fields_limits: {}, post_formats: ["text/plain"] } },
  };
}

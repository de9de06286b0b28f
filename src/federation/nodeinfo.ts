// NodeInfo 2.0 / 2.1 documents (http://nodeinfo.diaspora.software/ns/schema/2.x) and the
// /.well-known/nodeinfo discovery document. Pure builders: the figures come from instance operations.
import type { RuntimeSettings } from "../config/runtime.ts";
import type { instanceInfo, instanceUsage } from "../domain/instance/instance.ops.ts";

export const NODEINFO_VERSIONS = ["2.0", "2.1"] as const;
export type NodeinfoVersion = (typeof NODEINFO_VERSIONS)[number];

export const schemaUrl = (version: NodeinfoVersion) => `http://nodeinfo.diaspora.software/ns/schema/${version}`;

/** The media type NodeInfo asks for: JSON with the schema as profile (quoted: the URL is no token). */
export const nodeinfoContentType = (version: NodeinfoVersion) => `application/json; profile="${schemaUrl(version)}#"`;

/** "2.0", "2.0.json" → "2.0"; anything else → null. */
export function parseNodeinfoVersion(raw: string): NodeinfoVersion | null {
  const v = raw.replace(/\.json$/, "");
  return (NODEINFO_VERSIONS as readonly string[]).includes(v) ? (v as NodeinfoVersion) : null;
}

export function nodeinfoLinks(baseUrl: string) {
  return { links: NODEINFO_VERSIONS.map((v) => ({ rel: schemaUrl(v), href: `${baseUrl}/nodeinfo/${v}.json` })) };
}

type Info = Awaited<ReturnType<typeof instanceInfo>>;
type Usage = Awaited<ReturnType<typeof instanceUsage>>;

export function buildNodeinfo(version: NodeinfoVersion, info: Info, usage: Usage, mailer: Pick<RuntimeSettings["mailer"], "transport">) {
  const cfg = info.config;
  // plain text and short, as the schema suggests: the short description when there is one
  const nodeDescription = cfg.short_description.trim() ? cfg.short_description : cfg.description;
  return {
    version,
    software: {
      name: cfg.software_name.toLowerCase(),
      version: info.softwareVersion,
      // 2.1 adds the optional repository and homepage; none is published for this software yet
    },
    protocols: ["activitypub"],
    services: { inbound: [] as string[], outbound: [] as string[] },
    openRegistrations: cfg.registrations_open,
    usage: {
      users: { total: info.userCount, activeMonth: usage.activeMonth, activeHalfyear: usage.activeHalfyear },
      localPosts: info.statusCount,
    },
    metadata: {
      nodeName: cfg.name,
      nodeDescription,
      private: !cfg.public,
      suggestions: { enabled: false },
      staffAccounts: usage.staffAccounts,
      federation: info.federation,
      pollLimits: cfg.poll_limits,
      postFormats: cfg.allowed_post_formats,
      uploadLimits: {
        general: cfg.upload_limit,
        avatar: cfg.avatar_upload_limit,
        banner: cfg.banner_upload_limit,
        background: cfg.background_upload_limit,
      },
      fieldsLimits: {
        maxFields: cfg.max_account_fields,
        maxRemoteFields: cfg.max_remote_account_fields,
        nameLength: cfg.account_field_name_length,
        valueLength: cfg.account_field_value_length,
      },
      accountActivationRequired: cfg.account_activation_required,
      invitesEnabled: cfg.invites_enabled,
      // the file transport only writes .eml files: nothing reaches a mailbox
      mailerEnabled: mailer.transport === "smtp",
      features: info.features,
      localBubbleInstances: cfg.local_bubble,
      federatedTimelineAvailable: cfg.federated_timeline_available,
    },
  };
}

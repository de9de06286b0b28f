// The web app manifest (`/manifest.json`), as the family's servers write it from their settings.
import { z } from "zod";
import { operation } from "../operation.ts";

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml", avif: "image/avif" };

export const webManifest = operation({
  name: "instance.manifest",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    const instance = ctx.config.group("instance");
    const manifest = ctx.config.group("manifest");
    const base = ctx.settings.baseUrl;
    const icon = instance.instance_thumbnail;
    const ext = icon.split(/[?#]/)[0]!.split(".").pop()?.toLowerCase() ?? "";
    return {
      name: instance.name,
      description: instance.description,
      // the family's default icon is its logo; ours is the instance thumbnail
      icons: [{ src: /^[a-z][a-z0-9+.-]*:/i.test(icon) ? icon : `${base}${icon.startsWith("/") ? "" : "/"}${icon}`, ...(IMAGE_TYPES[ext] ? { type: IMAGE_TYPES[ext] } : {}) }],
      theme_color: manifest.theme_color,
      background_color: manifest.background_color,
      display: "standalone",
      scope: `${base}/`,
      start_url: "/",
      categories: ["social"],
      serviceworker: { src: "/sw.js" },
    };
  },
});

// The admin UI is built into dist/ and served by the server at /admin (src/http/admin-ui.ts).
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/admin/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, assetsDir: "assets" },
});

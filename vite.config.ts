import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { stringsFiles } from "./scripts/strings-files-plugin.ts";

export default defineConfig(({ command }) => ({
  plugins: [tailwindcss(), reactRouter(), stringsFiles()],
  build: { assetsInlineLimit: 0 },
  // The server build takes only the icons the app draws; loaded from node_modules, lucide-react's server entry is
  // every icon (half a second and 45 MB at start). Development keeps it external, so Vite does not transform it.
  ssr: command === "build" ? { noExternal: ["lucide-react"] } : {},
}));

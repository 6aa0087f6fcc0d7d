import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { stringsFiles } from "./scripts/strings-files-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), stringsFiles()],
  build: { assetsInlineLimit: 0 },
});

import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/** Vite as the app builds with it (vite.config.ts at the root), without the app's styling. */
export default defineConfig({
  plugins: [reactRouter()],
  build: { assetsInlineLimit: 0 },
});

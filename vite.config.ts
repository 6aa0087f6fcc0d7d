import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // Leaflet is one chunk of its own, shared by the campaign map and the place field's point map, which both
        // load it on demand; left to itself Rollup would merge it with a small module those pages share. The
        // controls only the point map shows stay in its own chunk.
        manualChunks: (id) => (id.includes("/node_modules/leaflet/src/") && !id.includes("/leaflet/src/control/") ? "leaflet" : undefined),
      },
    },
  },
});

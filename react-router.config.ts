import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // Middleware is the one route guard: each role's layout in app/routes.ts guards every page under it (decision 021).
  future: { v8_middleware: true },
  // Separate build folders let several end-to-end runs share one checkout.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;

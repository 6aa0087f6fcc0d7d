import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // Separate build folders let several end-to-end runs share one checkout.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;

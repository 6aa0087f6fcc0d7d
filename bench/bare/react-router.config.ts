import type { Config } from "@react-router/dev/config";

/** The bench's bare React Router app (framework mode, server-rendered), built into bench/bare/build only. */
export default {
  appDirectory: "app",
  ssr: true,
  buildDirectory: "build",
} satisfies Config;

import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and data files from its own dist/ at run time; bundling would also
  // publish them as static assets. node-redis requires its optional @opentelemetry/api peer at run
  // time, which a bundler would try (and fail) to resolve at build time.
  serverExternalPackages: ["@electric-sql/pglite", "redis", "@redis/client"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;

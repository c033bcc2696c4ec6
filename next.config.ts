import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and data files from its own dist/ at run time; bundling would also
  // publish them as static assets. node-redis loads its optional @opentelemetry/api peer with a
  // run-time require; kept external, the bundler never has to resolve that optional module.
  serverExternalPackages: ["@electric-sql/pglite", "redis", "@redis/client"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;

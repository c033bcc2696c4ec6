import type { NextConfig } from "next";
import { setting } from "./lib/config/env.ts";

// `npm run bench:profile` builds unminified into a folder of its own (NEXT_PROFILE_BUILD=1), so a
// CPU profile names our functions; the served build is never affected.
const profileBuild = setting("NEXT_PROFILE_BUILD") === "1";

const nextConfig: NextConfig = {
  ...(profileBuild ? { distDir: ".next-profile", experimental: { turbopackMinify: false } } : {}),
  // PGlite loads its wasm and data files from its own dist/ at run time; bundling would also
  // publish them as static assets. node-redis loads its optional @opentelemetry/api peer with a
  // run-time require; kept external, the bundler never has to resolve that optional module.
  serverExternalPackages: ["@electric-sql/pglite", "redis", "@redis/client"],
  poweredByHeader: false,
  typedRoutes: false,
  // A self-contained server (.next/standalone/server.js + the traced node_modules) for the
  // Dockerfile, which builds with NEXT_OUTPUT=standalone; so do npm start and the browser tests
  // (scripts/next-build.ts), which share one build and replay the image's run stage on it. Unset
  // (`next build` by hand, Vercel): the usual output.
  output: setting("NEXT_OUTPUT") === "standalone" ? "standalone" : undefined,
  // The server reads only supabase/migrations (and .data when embedded) at run time; nothing else
  // of the project belongs in a function bundle or the standalone folder. These apply to the routes'
  // traces only: a path in lib/ that reaches .data must also carry /*turbopackIgnore: true*/
  // (lib/db/config.ts), and scripts/trace-server.ts refuses a standalone folder holding one.
  outputFileTracingIncludes: { "/**": ["./supabase/migrations/*.sql"] },
  outputFileTracingExcludes: {
    "/**": [
      "./test/**",
      "./bench/**",
      "./e2e/**",
      "./docs/**",
      "./scripts/**",
      "./reports/**",
      "./.data/**",
      "./README.md",
      "./supabase/seed/**",
      "./.git/**",
      // Bundled into .next/server; the sources themselves are never read at run time.
      "./lib/**",
      "./app/**",
      "./components/**",
      "./registry/**",
    ],
  },
};

export default nextConfig;

// The production server (npm start, the Docker image, the browser tests): Next for pages, cron
// and storage, while the API routes of lib/surfaces/api-routes.ts are answered here, by the
// same handlers, without Next's router in between. That router costs ~0.45 ms of CPU a request,
// as much as the list's own work (bench/results/2026-11-24-eighth-pass.md). A production build
// must exist (npm start makes it); `next dev` and Vercel serve the route files under app/.
//   PORT (3000), HOST (all interfaces), TRUSTED_PROXY_HOPS (0: no proxy in front; docs/configuration.md)
import fs from "node:fs";
import http from "node:http";
import module from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";

// Node strips the types of every .ts file it loads, and this server loads ~1,400: half a second of a
// start. The compile cache (in the system's temporary folder) keeps the result for the next start,
// so the service's modules load after it, dynamically (bench/results/2026-11-28-cold-start.md).
module.enableCompileCache?.();
const { presetEnv, setting } = await import("./lib/config/env.ts");
const { closeDb, getDb } = await import("./lib/db/index.ts");
const { refuseUnsafeProduction } = await import("./lib/db/config.ts");
const { serverWritesClientAddress, settleForwarding, trustedProxyHops } = await import("./lib/http/client-address.ts");
const { createNodeServer } = await import("./lib/surfaces/node-server.ts");
const { startInProcessCompletionWorker } = await import("./lib/catalog/completion.ts");
const { startInProcessWorker } = await import("./lib/webhook-delivery/worker.ts");
const { startServices } = await import("./lib/upkeep/services.ts");

// As `next start` sets them; both are read when Next's modules load, hence the dynamic import.
presetEnv({ NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }, ["NODE_ENV"]);
const dir = import.meta.dirname;
// Next serves with the config its build resolved, handed over in this variable as its standalone
// server.js does. Left to itself it would compile next.config.ts again with SWC, whose native module
// alone holds 27 MB of memory for the life of the process. In the Docker image there is no
// next.config.ts (scripts/trace-server.ts); elsewhere it names the build's folder (the profiler's
// differs), read as Node reads any .ts file here.
const configFile = path.join(dir, "next.config.ts");
const distDir = fs.existsSync(configFile) ? ((await import(configFile)).default.distDir ?? ".next") : ".next";
const builtFile = path.join(dir, distDir, "required-server-files.json");
if (!fs.existsSync(builtFile)) {
  console.error(`No production build in ${path.join(dir, distDir)}: npm start makes one (or run npm run build).`);
  process.exit(1);
}
const built = JSON.parse(fs.readFileSync(builtFile, "utf8"));
presetEnv({ __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify(built.config) });
const { default: next } = await import("next");

const port = Number(setting("PORT"));
const hops = trustedProxyHops();
serverWritesClientAddress();
const host = setting("HOST");
// Next takes a request that asks for an Upgrade (WebSocket) on the server it is handed, else on the
// one its first request came through, and then ends it unanswered or leaves it hanging. The service
// has no WebSocket: given an unlistened server, Next never sees one, and node:http serves such a
// request as any other (RFC 9110 §7.8 lets a server ignore Upgrade).
const app = next({ dev: false, dir, port, hostname: host, httpServer: http.createServer() });
const nextHandler = app.getRequestHandler();
// What the services refuse when they start (lib/upkeep/startup.ts), refused before the port opens.
refuseUnsafeProduction();
// The API does not need Next: the port opens at once and the database opens. The services start and
// Next loads its build, as next start does, once the first request is answered (a health check, say)
// or a second has passed, or at once for a request only it can answer. Loading Next holds the main
// thread for most of a second: begun at once, it would hold the first API answer behind it
// (bench/results/2026-11-28-cold-start.md).
let wantNext = () => {};
const nextWanted = new Promise<void>((resolve) => {
  wantNext = resolve;
});
setTimeout(wantNext, 1000);
// The services first, from this process's modules (lib/upkeep/services.ts says why).
const prepared = Promise.all([getDb().catch(() => {}), nextWanted])
  .then(() => startServices())
  .then(() => app.prepare());
prepared.catch((error: unknown) => {
  console.error("The services or Next could not start:", error);
  process.exit(1);
});

// The API's routes answered directly, the rest by Next; a request line neither could take is answered there.
// Forwarding headers are settled first: only TRUSTED_PROXY_HOPS proxies may name the client.
const server = createNodeServer(
  "api",
  (req, res) => {
    wantNext();
    void prepared.then(() => nextHandler(req, res));
  },
  (req) => settleForwarding(req, hops),
);
server.once("request", (_req, res: http.ServerResponse) => res.once("close", wantNext));

server.listen(port, host, () => {
  const { port: bound } = server.address() as AddressInfo;
  console.log(`listening http://${host && host !== "0.0.0.0" ? host : "localhost"}:${bound}`);
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // No new requests; once the last answer is out, the worker (it finishes the delivery in hand), then
  // the database, so PGlite closes cleanly.
  server.close(
    () =>
      void Promise.all([startInProcessWorker()?.stop(), startInProcessCompletionWorker()?.stop()])
        .then(() => Promise.all([app.close(), closeDb()]))
        .finally(() => process.exit(0)),
  );
  // Keep-alive connections would hold close() open: idle ones go now, busy ones after their answer.
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

// Serves the API (/api/v1/..., /api/agent/tools|invoke) with node:http and nothing else: the
// handlers server.ts answers itself (lib/surfaces/api-routes.ts), and the same boot hook
// (instrumentation.ts: the in-process webhook worker unless WEBHOOKS_WORKER=off), without a build.
// For tests that need separate server processes (rate limits shared through Redis, kill -9 of a
// server with its worker) and for benchmarks that want the pipeline's cost without Next.
//   PORT=0 node scripts/serve-rest.ts   → prints "listening http://127.0.0.1:<port>" once ready.
import { closeDb } from "../lib/db/index.ts";
import { nodeListener } from "../lib/http/node-adapter.ts";
import { handleApiWithoutNext } from "../lib/surfaces/api-routes.ts";
import { createNodeServer } from "../lib/surfaces/node-server.ts";
import { startInProcessCompletionWorker } from "../lib/catalog/completion.ts";
import { startInProcessWorker } from "../lib/webhook-delivery/worker.ts";
import { register } from "../instrumentation.ts";

const server = createNodeServer("serve-rest", nodeListener("serve-rest", handleApiWithoutNext));

// What Next sets before it calls register() in a Node.js server.
process.env.NEXT_RUNTIME ??= "nodejs";
await register();

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : process.env.PORT;
  console.log(`listening http://127.0.0.1:${port}`);
});

const stop = () =>
  server.close(
    () =>
      void Promise.all([startInProcessWorker()?.stop(), startInProcessCompletionWorker()?.stop()])
        .then(closeDb)
        .finally(() => process.exit(0)),
  );
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

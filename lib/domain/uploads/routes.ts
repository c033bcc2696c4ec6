import { everyMethod } from "../../http/method-not-allowed.ts";
import { receiveUpload } from "./receive.ts";
import { serveMedia } from "./serve.ts";

type KeyContext = { params: Promise<{ key: string[] }> };
type Handler = (request: Request, context: KeyContext) => Promise<Response>;

const byKey =
  (serve: (request: Request, key: readonly string[]) => Promise<Response>): Handler =>
  async (request, context) =>
    serve(request, (await context.params).key);

const receive = byKey(receiveUpload);
const media = byKey(serveMedia);

/** The local storage driver's endpoint, outside /api/v1: signed PUTs of upload bytes (other methods: 405). */
export const uploadRoute = everyMethod(
  { PUT: receive, GET: receive, POST: receive, PATCH: receive, DELETE: receive },
  { allow: ["PUT"] },
);

/** The local storage driver's signed downloads (export links). */
export const mediaRoute = everyMethod({ GET: media, HEAD: media }, { allow: ["GET", "HEAD"] });

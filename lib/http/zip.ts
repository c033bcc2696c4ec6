import { Zip, ZipDeflate } from "fflate";

/**
 * A ZIP of JSON documents, streamed: each document is serialised and deflated only when the
 * client pulls, so a large export never sits in memory as one archive. fflate (pure JS, no native
 * build) writes the archive in streaming mode (data descriptors), which every unzip tool reads.
 */
export function zipJsonStream(files: Readonly<Record<string, unknown>>): ReadableStream<Uint8Array> {
  const entries = Object.entries(files);
  let zip: Zip;
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) {
          controller.error(error);
          return;
        }
        if (chunk.length) controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    pull() {
      const entry = entries[next++];
      if (!entry) {
        zip.end();
        return;
      }
      const [name, document] = entry;
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(new TextEncoder().encode(`${JSON.stringify(document, null, 2)}\n`), true);
    },
  });
}

export function zipResponse(
  files: Readonly<Record<string, unknown>>,
  fileName: string,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(zipJsonStream(files), {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Request-Id": requestId,
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

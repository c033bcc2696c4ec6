import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A throwaway certificate for 127.0.0.1 (openssl, two days), for a test's own https server: the
 * client metadata documents an OAuth client serves, which must be https. Made per run, never kept
 * in the repository. `dir`: where to write (the browser tests hand the path to the server).
 */
export function selfSignedCertificate(dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-tls-"))) {
  fs.mkdirSync(dir, { recursive: true });
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  if (!fs.existsSync(cert)) {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
  }
  return { key: fs.readFileSync(key, "utf8"), cert: fs.readFileSync(cert, "utf8"), certPath: cert };
}

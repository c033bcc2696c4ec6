import fs from "node:fs";

/**
 * PGlite has no lock between processes, and two writers on one data folder corrupt it. A pid file
 * beside the folder (not inside: initdb needs an empty folder) turns that into a clear refusal.
 */
export function lockDataDir(dir: string): () => void {
  const lockPath = `${dir.replace(/\/+$/, "")}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      const release = () => fs.rmSync(lockPath, { force: true });
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lockPath, "utf8"));
      if (holder === process.pid) return () => {};
      if (isAlive(holder)) {
        throw new Error(
          `The embedded database at ${dir} is in use by process ${holder} (a running server?). ` +
            "Stop that process, or point PGLITE_DIR at another folder (or DATABASE_URL at a Postgres server). " +
            "While the server runs, members and tokens can be made in the browser at /sign-up and /settings/tokens.",
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the embedded database at ${dir}.`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

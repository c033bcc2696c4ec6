import { type PGlite, parse, protocol, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;

interface Statement {
  name: string;
  paramTypes: number[];
}

/** Errors after which a cached statement is parsed again: its plan's result type changed, or it is gone. */
const STALE_STATEMENT = new Set(["0A000", "26000"]);

const join = (parts: Uint8Array[]) => Buffer.concat(parts);

/**
 * Parameterised queries on PGlite as named prepared statements, each run in one call into the
 * wasm. PGlite's own query() parses and plans the text again every time and makes six calls
 * (parse, describe, bind, describe, execute, sync); on a list that was a third of the request's
 * CPU (bench/results). Results are typed by PGlite's own parsers (or `parsers`), so rows are what
 * query() gives.
 * Only for use inside PGlite's transaction, which holds its lock; `queue` keeps statements sent
 * together in the order they were sent.
 */
export function preparedStatements(db: PGlite, parsers: PGlite["parsers"] = db.parsers) {
  const statements = new Map<string, Statement>();
  let counter = 0;
  let queue: Promise<unknown> = Promise.resolve();

  async function prepare(text: string): Promise<Statement> {
    const name = `pds_${++counter}`;
    const { messages } = await db.execProtocol(
      join([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  }

  async function run<T extends object>(text: string, params: readonly unknown[]): Promise<Results<T>> {
    const statement = statements.get(text) ?? (await prepare(text));
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const { messages } = await db.execProtocol(
        join([
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: "P" }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      return (parse.parseResults(messages, parsers)[0] ?? { rows: [], fields: [] }) as Results<T>;
    } catch (error) {
      // Not retried here: inside a transaction the error has already aborted it. The next
      // transaction parses the statement again.
      if (STALE_STATEMENT.has((error as { code?: string }).code ?? "")) statements.delete(text);
      throw error;
    }
  }

  return {
    query<T extends object>(text: string, params: readonly unknown[] = []): Promise<Results<T>> {
      const result = queue.then(() => run<T>(text, params));
      queue = result.catch(() => {});
      return result;
    },
    /** After DDL (migrations, rare): statements parse again under new names; the old ones stay unused. */
    forget(): void {
      statements.clear();
    },
  };
}

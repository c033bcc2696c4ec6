import dns from "node:dns";
import net from "node:net";

/**
 * A safety net for tests that aim requests at outside addresses: every TCP connection this process
 * starts to anything but loopback fails before a packet leaves, and is recorded (host and the
 * addresses it would have gone to). An SSRF test can then tell "refused by the guard" (no attempt)
 * from "let through" (an attempt, to exactly the checked address) without touching any network.
 */
export interface OutsideAttempt {
  host: string;
  addresses: string[];
}

const isLoopback = (address: string) => address === "::1" || /^(::ffff:)?127\./i.test(address);

type Lookup = NonNullable<net.TcpNetConnectOpts["lookup"]>;

export function loopbackOnly(): { attempts: OutsideAttempt[]; restore: () => void } {
  const attempts: OutsideAttempt[] = [];
  const original = net.Socket.prototype.connect;
  const fail = (socket: net.Socket, attempt: OutsideAttempt) => {
    attempts.push(attempt);
    const error = Object.assign(new Error(`test: no connection outside loopback (${attempt.addresses.join(", ")})`), {
      code: "ETESTNET",
    });
    process.nextTick(() => socket.destroy(error));
    return socket;
  };
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (
      Array.isArray(first) ? first[0] : typeof first === "object" ? first : { port: first, host: args[1] }
    ) as (net.TcpNetConnectOpts & { path?: string }) | undefined;
    if (!options || options.path) return original.apply(this, args as Parameters<typeof original>);
    const host = options.host ?? "localhost";
    if (net.isIP(host)) {
      if (!isLoopback(host)) return fail(this, { host, addresses: [host] });
    } else {
      const lookup: Lookup = options.lookup ?? (dns.lookup as unknown as Lookup);
      options.lookup = ((
        hostname: string,
        lookupOptions: dns.LookupOptions,
        callback: (...answer: unknown[]) => void,
      ) =>
        lookup(
          hostname,
          lookupOptions,
          (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
            const list = error ? [] : Array.isArray(address) ? address.map((a) => a.address) : [address];
            if (list.some((a) => !isLoopback(a))) {
              attempts.push({ host: hostname, addresses: list });
              const refusal = Object.assign(new Error(`test: no connection outside loopback (${list.join(", ")})`), {
                code: "ETESTNET",
              });
              return callback(refusal, lookupOptions.all ? [] : undefined);
            }
            callback(error, address, family);
          },
        )) as Lookup;
    }
    return original.apply(this, args as Parameters<typeof original>);
  } as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

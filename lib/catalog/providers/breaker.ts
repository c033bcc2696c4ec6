import { breakerSettings } from "./config.ts";

interface Circuit {
  failures: number;
  openUntil: number;
}

/**
 * One circuit per provider (per host for article pages): after `failures` failed calls in a row
 * the provider is skipped until the cool-down ends, so a provider that is down or unreachable
 * costs a resolve nothing instead of a timeout. After the cool-down one call is let through; its
 * success closes the circuit, its failure opens it again. A DNS failure opens it at once: with no
 * name resolution there is no network to wait for.
 */
export class CircuitBreaker {
  private readonly circuits = new Map<string, Circuit>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** True when a call may go out (closed, or the cool-down is over). */
  allows(key: string): boolean {
    const circuit = this.circuits.get(key);
    return !circuit || circuit.openUntil <= this.now();
  }

  /** Milliseconds until an open circuit lets a call through again; 0 when closed. */
  retryInMs(key: string): number {
    return Math.max(0, (this.circuits.get(key)?.openUntil ?? 0) - this.now());
  }

  succeeded(key: string): void {
    this.circuits.delete(key);
  }

  failed(key: string, options: { immediately?: boolean } = {}): void {
    const { failures, cooldownMs } = breakerSettings();
    const circuit = this.circuits.get(key) ?? { failures: 0, openUntil: 0 };
    circuit.failures = options.immediately ? Math.max(circuit.failures + 1, failures) : circuit.failures + 1;
    if (circuit.failures >= failures) circuit.openUntil = this.now() + cooldownMs;
    this.circuits.set(key, circuit);
    // Keeps the map bounded when keys are hosts of arbitrary article pages.
    if (this.circuits.size > 1000) {
      const oldest = this.circuits.keys().next().value;
      if (oldest !== undefined) this.circuits.delete(oldest);
    }
  }
}

type Holder = typeof globalThis & { __pdsProviderBreaker?: CircuitBreaker };
const holder = globalThis as Holder;

export const providerBreaker = (): CircuitBreaker => {
  holder.__pdsProviderBreaker ??= new CircuitBreaker();
  return holder.__pdsProviderBreaker;
};

/** Tests start from closed circuits, and may drive the cool-down with their own clock. */
export function resetProviderBreaker(now: () => number = Date.now): CircuitBreaker {
  holder.__pdsProviderBreaker = new CircuitBreaker(now);
  return holder.__pdsProviderBreaker;
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"]);

/** A name-resolution failure, as fetch (error.cause) or node:http (error) reports it. */
export function isDnsFailure(error: unknown): boolean {
  const code = (value: unknown) => (value as NodeJS.ErrnoException | undefined)?.code;
  return (
    DNS_CODES.has(code(error) ?? "") || DNS_CODES.has(code((error as { cause?: unknown } | undefined)?.cause) ?? "")
  );
}

import { afterEach } from "vitest";

/**
 * Sets environment variables for the current test and restores them after it. undefined removes
 * a variable, so the registry's defaults apply (the suite raises rate limits in vitest.config.ts).
 */
export function useEnv(): (vars: Record<string, string | undefined>) => void {
  const restores: (() => void)[] = [];
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });
  return (vars) => void restores.push(overrideEnv(vars));
}

/** Sets (or, for undefined, removes) the variables; the function returned puts back what was there. */
export function overrideEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.entries(vars).map(([name]) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The spec's rate limits, with the refill slowed where a test must not see it. */
export const SPEC_LIMITS = {
  RATE_LIMIT_CAPACITY: undefined,
  RATE_LIMIT_REFILL_PER_SECOND: undefined,
  RATE_LIMIT_RESOLVER_CAPACITY: undefined,
  RATE_LIMIT_RESOLVER_REFILL_PER_SECOND: undefined,
};

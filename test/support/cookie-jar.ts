import type { AuthRequest, CookieOptions } from "@/lib/web/auth-context";

/** A browser's cookie store for calling the auth backends outside a Next request. */
export class TestBrowser {
  readonly jar = new Map<string, string>();
  readonly userAgent: string;
  constructor(userAgent = "TestBrowser/1.0") {
    this.userAgent = userAgent;
  }

  request(): AuthRequest {
    return {
      cookies: {
        getAll: () => [...this.jar].map(([name, value]) => ({ name, value })),
        set: (name: string, value: string, options?: CookieOptions) => {
          if (!value || options?.maxAge === 0) this.jar.delete(name);
          else this.jar.set(name, value);
        },
      },
      headers: new Headers({ host: "localhost:3000", "user-agent": this.userAgent }),
    };
  }
}

/**
 * Failed sign-in attempts per (IP, user name) in a one-minute window, in memory. Once the limit is
 * reached every attempt for that pair is refused (429) until the window ends, so guessing is slow
 * while ordinary repeated sign-ins (tests, kiosks) are never throttled.
 */
export class SignInLimiter {
  private readonly windows = new Map<string, { start: number; failures: number }>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number,
    private readonly windowMs = 60_000,
  ) {}

  private key(ip: string, user: string) {
    return `${ip}\u0000${user.toLowerCase()}`;
  }

  /** Seconds to wait, or 0 when an attempt is allowed. */
  retryAfter(ip: string, user: string): number {
    const w = this.windows.get(this.key(ip, user));
    if (!w) return 0;
    const left = w.start + this.windowMs - this.now();
    if (left <= 0) {
      this.windows.delete(this.key(ip, user));
      return 0;
    }
    return w.failures >= this.limit ? Math.ceil(left / 1000) : 0;
  }

  fail(ip: string, user: string) {
    const k = this.key(ip, user);
    const t = this.now();
    const w = this.windows.get(k);
    if (!w || t - w.start >= this.windowMs) this.windows.set(k, { start: t, failures: 1 });
    else w.failures++;
    if (this.windows.size > 10_000) {
      for (const [key, v] of this.windows) if (t - v.start >= this.windowMs) this.windows.delete(key);
    }
  }
}

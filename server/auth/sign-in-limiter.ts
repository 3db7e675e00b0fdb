/**
 * Failed sign-in attempts in one-minute windows, in memory (one process; a restart forgets them).
 *
 * - Per address and user name: once `limit` failures are reached, that pair is refused (429) until
 *   its window ends, so guessing one user's password is slow.
 * - Per address across user names: an address that failed for `address.names` different user names,
 *   or `address.failures` times in all, within its window is refused for every user name until the
 *   window ends, so trying one password on many user names is slow too.
 *
 * Only failures count: successful sign-ins (the browser tests sign in hundreds of times from
 * 127.0.0.1, kiosks sign in all day) never use up a budget. An IPv6 address counts by its /64, the
 * block one machine is usually given, so changing the last 64 bits does not start a new count.
 */
import { isIPv6 } from 'node:net';

interface Window {
  start: number;
  failures: number;
}
interface AddressWindow extends Window {
  names: Set<string>;
}

export interface AddressLimits {
  /** Different user names with a failure, per address and window. */
  names: number;
  /** Failures for any user names, per address and window. */
  failures: number;
}

export const DEFAULT_ADDRESS_LIMITS: AddressLimits = { names: 10, failures: 30 };
const PRUNE_ABOVE = 10_000;

/** The address a budget belongs to: IPv4 as it is (also when IPv4-mapped), IPv6 by its /64. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

export class SignInLimiter {
  private readonly pairs = new Map<string, Window>();
  private readonly addresses = new Map<string, AddressWindow>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number,
    private readonly windowMs = 60_000,
    private readonly address: AddressLimits = DEFAULT_ADDRESS_LIMITS,
  ) {}

  private pairKey(ip: string, user: string) {
    return `${addressKey(ip)}\u0000${user.toLowerCase()}`;
  }

  /** Milliseconds left of a window, or 0 when it has ended (and is dropped). */
  private left<W extends Window>(map: Map<string, W>, key: string): { w: W; ms: number } | undefined {
    const w = map.get(key);
    if (!w) return undefined;
    const ms = w.start + this.windowMs - this.now();
    if (ms <= 0) {
      map.delete(key);
      return undefined;
    }
    return { w, ms };
  }

  /** Seconds to wait, or 0 when an attempt is allowed. */
  retryAfter(ip: string, user: string): number {
    let wait = 0;
    const pair = this.left(this.pairs, this.pairKey(ip, user));
    if (pair && pair.w.failures >= this.limit) wait = pair.ms;
    const addr = this.left(this.addresses, addressKey(ip));
    if (addr && (addr.w.names.size >= this.address.names || addr.w.failures >= this.address.failures)) wait = Math.max(wait, addr.ms);
    return Math.ceil(wait / 1000);
  }

  fail(ip: string, user: string) {
    const t = this.now();
    const pk = this.pairKey(ip, user);
    const pair = this.pairs.get(pk);
    if (!pair || t - pair.start >= this.windowMs) this.pairs.set(pk, { start: t, failures: 1 });
    else pair.failures++;

    const ak = addressKey(ip);
    let addr = this.addresses.get(ak);
    if (!addr || t - addr.start >= this.windowMs) this.addresses.set(ak, (addr = { start: t, failures: 0, names: new Set() }));
    addr.failures++;
    // Bounded: once the address is refused, more names change nothing.
    if (addr.names.size < this.address.names) addr.names.add(user.toLowerCase());

    this.prune(this.pairs, t);
    this.prune(this.addresses, t);
  }

  private prune(map: Map<string, Window>, t: number) {
    if (map.size <= PRUNE_ABOVE) return;
    for (const [key, v] of map) if (t - v.start >= this.windowMs) map.delete(key);
  }
}

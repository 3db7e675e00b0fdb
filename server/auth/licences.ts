/**
 * Licences (sign-ins). A token is 32 random bytes (base64url) given to the client once; only its
 * SHA-256 is stored (licences.token_hash). The rule that governs a user is, in order: a user rule
 * (type 1), a group rule (type 2), the rule for the user's licence type (4 full, 8 web-only,
 * 16 web-only read-only), then the catch-all (type 0, IID 1 Default). A rule's seats bound the
 * licences held at once; MaxTime bounds a licence's age (499), MaxTimeLastAccessed its idle time (402).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable, Store } from '../db/store.js';
import { Errors } from '../http/errors.js';

export interface AuthContext {
  licenceId: number;
  tokenHash: string;
  userId: number;
  userName: string;
  licenceType: number;
  isAdminAll: boolean;
  isUserAdmin: boolean;
  ruleIid: number | null;
  leaseMs: number;
  lastUsedAt: Date;
}

export interface LicenceClock {
  now: () => number;
  /** LEASE_SECONDS: overrides every rule's MaxTimeLastAccessed. */
  leaseSeconds?: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const UNIT_MS = [60_000, 3_600_000, 86_400_000];
function spanMs(amount: number | null | undefined, unit: number | null | undefined, fallbackMs: number): number {
  if (amount === null || amount === undefined || amount <= 0) return fallbackMs;
  return amount * (UNIT_MS[unit ?? 0] ?? 60_000);
}

interface RuleTimes {
  max_time: number | null;
  max_time_type: number | null;
  max_time_last_accessed: number | null;
  max_time_last_accessed_type: number | null;
}

export function ruleSpans(rule: RuleTimes | undefined, clock: LicenceClock) {
  const maxMs = spanMs(rule?.max_time, rule?.max_time_type, 8 * 3_600_000);
  const leaseMs = clock.leaseSeconds && clock.leaseSeconds > 0 ? clock.leaseSeconds * 1000 : spanMs(rule?.max_time_last_accessed, rule?.max_time_last_accessed_type, 15 * 60_000);
  return { maxMs, leaseMs };
}

/** Rule type that matches a user's licence type: 1 full -> 4, 2 web-only full -> 8, 4 web-only read-only -> 16. */
function ruleTypeFor(licenceType: number): number {
  return licenceType === 4 ? 16 : licenceType === 2 ? 8 : 4;
}

interface RuleRow extends RuleTimes {
  iid: number;
  seats: number | null;
}

export async function pickRule(db: Queryable, userId: number, licenceType: number): Promise<RuleRow | undefined> {
  const r = await db.query<RuleRow>(
    `SELECT r.iid, r.seats, r.max_time, r.max_time_type, r.max_time_last_accessed, r.max_time_last_accessed_type
       FROM licence_rules r
      WHERE (r.type = 1 AND r.user_id = $1)
         OR (r.type = 2 AND r.group_id IN (SELECT group_id FROM group_members WHERE user_id = $1))
         OR r.type = $2
         OR r.type = 0
      ORDER BY CASE r.type WHEN 1 THEN 1 WHEN 2 THEN 2 WHEN 0 THEN 4 ELSE 3 END, r.iid
      LIMIT 1`,
    [userId, ruleTypeFor(licenceType)],
  );
  return r.rows[0];
}

/** Issues a licence, or throws 409 "All licenses are in use" when the rule has no free seat. */
export async function obtainLicence(store: Store, clock: LicenceClock, user: { id: number; licence_type: number }, ip: string): Promise<{ token: string; type: number }> {
  const token = newToken();
  const now = new Date(clock.now());
  await store.transaction(async (tx) => {
    const rule = await pickRule(tx, user.id, user.licence_type);
    if (rule) {
      await tx.query('SELECT iid FROM licence_rules WHERE iid = $1 FOR UPDATE', [rule.iid]);
      if (rule.seats !== null && rule.seats !== undefined) {
        const { maxMs, leaseMs } = ruleSpans(rule, clock);
        // Licences past their time no longer hold a seat: release them now.
        await tx.query(
          // The reason is the one the licence's own next call would have found ('max-time' before
          // 'lease'), so that call still answers 499 or 402, not a bare LicenseExpired.
          `UPDATE licences SET released_at = $2,
                  release_reason = CASE WHEN issued_at <= $3 THEN 'max-time' ELSE 'lease' END
            WHERE rule_iid = $1 AND released_at IS NULL AND (issued_at <= $3 OR last_used_at <= $4)`,
          [rule.iid, now, new Date(now.getTime() - maxMs), new Date(now.getTime() - leaseMs)],
        );
        const held = await tx.query<{ n: number }>('SELECT count(*) AS n FROM licences WHERE rule_iid = $1 AND released_at IS NULL', [rule.iid]);
        if ((held.rows[0]?.n ?? 0) >= rule.seats) throw Errors.allInUse();
      }
    }
    await tx.query(
      `INSERT INTO licences (token_hash, user_id, type, rule_iid, issued_at, last_used_at, client_ip)
       VALUES ($1, $2, $3, $4, $5, $5, $6)`,
      [hashToken(token), user.id, user.licence_type, rule?.iid ?? null, now, ip],
    );
  });
  return { token, type: user.licence_type };
}

interface LicenceRow extends RuleTimes {
  id: number;
  token_hash: string;
  user_id: number;
  type: number;
  rule_iid: number | null;
  issued_at: Date;
  last_used_at: Date;
  released_at: Date | null;
  release_reason: string | null;
  name: string;
  is_admin_all: boolean;
  is_user_admin: boolean;
  disabled: boolean;
}

async function loadLicence(store: Queryable, tokenHash: string): Promise<LicenceRow | undefined> {
  const r = await store.query<LicenceRow>(
    `SELECT l.id, l.token_hash, l.user_id, l.type, l.rule_iid, l.issued_at, l.last_used_at, l.released_at, l.release_reason,
            u.name, u.is_admin_all, u.is_user_admin, u.disabled,
            r.max_time, r.max_time_type, r.max_time_last_accessed, r.max_time_last_accessed_type
       FROM licences l JOIN users u ON u.id = l.user_id
       LEFT JOIN licence_rules r ON r.iid = l.rule_iid
      WHERE l.token_hash = $1`,
    [tokenHash],
  );
  return r.rows[0];
}

export async function releaseLicence(store: Queryable, licenceId: number, now: number, reason: string): Promise<void> {
  await store.query('UPDATE licences SET released_at = $2, release_reason = $3 WHERE id = $1 AND released_at IS NULL', [licenceId, new Date(now), reason]);
}

type Verdict = { ok: true; row: LicenceRow; leaseMs: number } | { ok: false; error: () => Error };

async function judge(store: Store, clock: LicenceClock, token: string | undefined): Promise<Verdict> {
  if (!token) return { ok: false, error: Errors.licenseExpiredKey };
  const row = await loadLicence(store, hashToken(token));
  if (!row || row.disabled) return { ok: false, error: Errors.licenseExpiredKey };
  // A licence that ran out keeps saying how, so every call the page had in flight gets the same
  // answer (one lease-expired modal) instead of the first a 402 and the rest a bare LicenseExpired.
  if (row.released_at) {
    if (row.release_reason === 'lease') return { ok: false, error: Errors.leaseExpired };
    if (row.release_reason === 'max-time') return { ok: false, error: Errors.licenceExpired };
    return { ok: false, error: Errors.licenseExpiredKey };
  }
  const now = clock.now();
  const { maxMs, leaseMs } = ruleSpans(row, clock);
  if (now - new Date(row.issued_at).getTime() >= maxMs) {
    await releaseLicence(store, row.id, now, 'max-time');
    return { ok: false, error: Errors.licenceExpired };
  }
  if (now - new Date(row.last_used_at).getTime() >= leaseMs) {
    await releaseLicence(store, row.id, now, 'lease');
    return { ok: false, error: Errors.leaseExpired };
  }
  return { ok: true, row, leaseMs };
}

/** How close two uses of a licence may be for the second not to be written (the lease restarts at the first). */
export const LAST_USED_RESOLUTION_MS = 1_000;

/** The check every authenticated call makes; records the use (the lease restarts). */
export async function authenticate(store: Store, clock: LicenceClock, token: string | undefined): Promise<AuthContext> {
  const v = await judge(store, clock, token);
  if (!v.ok) throw v.error();
  const now = new Date(clock.now());
  // A lease is minutes long: a use within a second of the one recorded changes nothing worth a
  // write, and an upload's chunks (hundreds a minute) would each pay a disk write for it.
  if (now.getTime() - new Date(v.row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    await store.query('UPDATE licences SET last_used_at = $2 WHERE id = $1', [v.row.id, now]);
  }
  return {
    licenceId: v.row.id,
    tokenHash: v.row.token_hash,
    userId: v.row.user_id,
    userName: v.row.name,
    licenceType: v.row.type,
    isAdminAll: v.row.is_admin_all,
    isUserAdmin: v.row.is_user_admin,
    ruleIid: v.row.rule_iid,
    leaseMs: v.leaseMs,
    lastUsedAt: now,
  };
}

/** validate=true / authorize: answers whether the token is good without counting as a use. */
export async function validateToken(store: Store, clock: LicenceClock, token: string | undefined) {
  const v = await judge(store, clock, token);
  if (!v.ok) {
    const Reason = v.error === Errors.leaseExpired ? 'lease' : v.error === Errors.licenceExpired ? 'max-time' : 'released';
    return { Valid: false, Reason } as const;
  }
  return {
    Valid: true,
    Type: v.row.type,
    Restricted: false,
    LeaseEnds: new Date(new Date(v.row.last_used_at).getTime() + v.leaseMs).toISOString(),
  };
}

export async function findLicence(store: Store, token: string) {
  const r = await store.query<{ id: number; type: number; user_id: number; released_at: Date | null }>('SELECT id, type, user_id, released_at FROM licences WHERE token_hash = $1', [hashToken(token)]);
  return r.rows[0];
}

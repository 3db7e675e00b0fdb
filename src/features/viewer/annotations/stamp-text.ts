/**
 * A stamp's text as it is placed (the archive-ops spec §3 Stamp): @Today becomes the current date and
 * time in 12-hour am/pm form, @User the current user's name without its domain (a sign-in may be
 * `domain\username`). Pure: the time, the user name and the date's locale come in.
 */
export const TODAY_MARKER = '@Today';
export const USER_MARKER = '@User';

/** 'CORP\jane' -> 'jane'; 'jane' stays; null or blank: no user name. */
export function userWithoutDomain(signIn: string | null | undefined): string | null {
  const name = (signIn ?? '').trim();
  if (!name) return null;
  const bare = name.slice(name.lastIndexOf('\\') + 1).trim();
  return bare || null;
}

/** The date in the locale's order with the time in 12-hour form: '11/27/2026 9:05 PM' (en-US), '27.11.2026 9:05 PM' (de). */
export function todayText(now: Date, locale: string): string {
  const date = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  // The time always in am/pm form, as the spec asks, whatever the locale's own clock.
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true }).format(now);
  return `${date} ${time}`;
}

export type StampText = { text: string } | { error: 'STAMP_NO_USER' };

/**
 * The stamp's text with its markers replaced (every occurrence; the markers are matched as the spec
 * writes them). @User with no user name known: the spec's 'Unable to get current Username'
 * (STAMP_NO_USER), and no stamp.
 */
export function stampText(template: string, ctx: { now: Date; locale: string; userName: string | null | undefined }): StampText {
  let text = template;
  if (text.includes(USER_MARKER)) {
    const user = userWithoutDomain(ctx.userName);
    if (!user) return { error: 'STAMP_NO_USER' };
    text = text.split(USER_MARKER).join(user);
  }
  if (text.includes(TODAY_MARKER)) text = text.split(TODAY_MARKER).join(todayText(ctx.now, ctx.locale));
  return { text };
}

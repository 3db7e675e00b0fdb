/** Only same-app paths are followed after sign-in (never an absolute or protocol-relative URL). */
export function safeRedirect(value: string | null | undefined, fallback = '/select'): string {
  if (!value) return fallback;
  let v = value;
  try {
    if (v.startsWith('%2F') || v.startsWith('%2f')) v = decodeURIComponent(v);
  } catch {
    return fallback;
  }
  if (!v.startsWith('/') || v.startsWith('//') || v.startsWith('/\\')) return fallback;
  if (v.startsWith('/login') || v.startsWith('/logout')) return fallback;
  return v;
}

/** A fetch stand-in answering with fixed responses, recording what was asked. */
export interface Recorded {
  url: string;
  init: RequestInit | undefined;
}

export function jsonResponse(body: unknown, init: { status?: number; statusText?: string; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    statusText: init.statusText ?? '',
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}

export function fakeFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const calls: Recorded[] = [];
  const fn = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return answer(url, init);
  };
  return { fn, calls };
}

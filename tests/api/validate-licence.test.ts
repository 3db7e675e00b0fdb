import { describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { classifyError } from '../../src/api/error-handler';
import { validateLicence } from '../../src/features/licence/api/validate-licence';
import { fakeFetch, jsonResponse } from './fake-fetch';

function answering(body: unknown) {
  const f = fakeFetch(() => jsonResponse(body));
  configureHttp({ baseUrl: () => '', token: () => 'tok', fetchFn: f.fn });
}

describe('licence validation reports how a licence ended', () => {
  it('a valid licence is returned as it is', async () => {
    answering({ Valid: true, Type: 1, Restricted: false });
    expect(await validateLicence()).toEqual({ Valid: true, Type: 1, Restricted: false });
  });

  it('a lapsed lease becomes the lease-expired error (modal), not the licence-expired page', async () => {
    answering({ Valid: false, Reason: 'lease' });
    const e = await validateLicence().catch((x: unknown) => x);
    expect(classifyError(e).type).toBe('leaseExpired');
  });

  it('a licence past its maximum time becomes the licence-expired login', async () => {
    answering({ Valid: false, Reason: 'max-time' });
    const e = await validateLicence().catch((x: unknown) => x);
    expect(classifyError(e).type).toBe('licenceExpired');
  });

  it('a released licence is answered as invalid for the licence-expired page', async () => {
    answering({ Valid: false, Reason: 'released' });
    expect(await validateLicence()).toEqual({ Valid: false, Reason: 'released' });
  });
});

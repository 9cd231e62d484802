import { SwitchyardError } from '@switchyard/contracts/errors';
import { describe, expect, it } from 'vitest';
import {
  REDACTION_MARK,
  redactError,
  redactHeaders,
  redactText,
  redactUrl,
  registerSecret,
  SECRET_HEADERS,
  SECRET_QUERY_PARAMS,
} from '../src/index.js';

const R = REDACTION_MARK;

describe('redactUrl', () => {
  it('replaces the value of every secret query parameter, keeping the rest of the URL', () => {
    for (const name of SECRET_QUERY_PARAMS) {
      expect(redactUrl(`https://api.example.org/a/b?mode=tube&${name}=s3cr3t-value&x=1#frag`)).toBe(
        `https://api.example.org/a/b?mode=tube&${name}=${R}&x=1#frag`,
      );
    }
  });

  it('redacts the credentials each upstream uses, by name', () => {
    // Named here rather than read from SECRET_QUERY_PARAMS: dropping one from that list must fail a test.
    for (const name of [
      'app_key',
      'app_id',
      'digitransit-subscription-key',
      'subscription-key',
      'access_token',
    ]) {
      expect(redactUrl(`https://upstream.example/x?${name}=named-secret-1&a=1`)).toBe(
        `https://upstream.example/x?${name}=${R}&a=1`,
      );
    }
  });

  it('matches parameter names case-insensitively and accepts URL objects', () => {
    expect(redactUrl(new URL('https://api.tfl.gov.uk/Journey?App_Key=abc123def&app_id=42'))).toBe(
      `https://api.tfl.gov.uk/Journey?App_Key=${R}&app_id=${R}`,
    );
  });

  it('leaves parameters that only contain a secret name alone', () => {
    expect(redactUrl('https://x.example/?monkey=banana&keys=3&tokenizer=on')).toBe(
      'https://x.example/?monkey=banana&keys=3&tokenizer=on',
    );
  });

  it('redacts a path+query as TfL echoes it in relativeUri', () => {
    expect(
      redactUrl('/Journey/JourneyResults/1000129/to/940GZZLUBNK?app_key=SENTINEL-KEY-0001&mode=tube'),
    ).toBe(`/Journey/JourneyResults/1000129/to/940GZZLUBNK?app_key=${R}&mode=tube`);
  });

  it('removes URL passwords and registered secrets in the path', () => {
    registerSecret('path-secret-9876');
    expect(redactUrl('https://user:hunter2@example.org/keys/path-secret-9876/x')).toBe(
      `https://user:${R}@example.org/keys/${R}/x`,
    );
  });
});

describe('redactText', () => {
  it('redacts query strings embedded in prose, JSON and HTML', () => {
    const text =
      'GET https://api.tfl.gov.uk/x?app_key=abc&q=1 failed; body {"relativeUri":"/x?token=t0k3n&y=2"} <a href="/p?a=1&amp;signature=zzz">';
    expect(redactText(text)).toBe(
      `GET https://api.tfl.gov.uk/x?app_key=${R}&q=1 failed; body {"relativeUri":"/x?token=${R}&y=2"} <a href="/p?a=1&amp;signature=${R}">`,
    );
  });

  it('redacts secret JSON fields, header lines, bearer tokens and GitHub tokens', () => {
    expect(redactText('{"app_key": "abc", "Authorization":"Bearer xyz", "mode":"tube"}')).toBe(
      `{"app_key": "${R}", "Authorization":"${R}", "mode":"tube"}`,
    );
    expect(redactText('Host: a\nAuthorization: token abcdefgh123\nAccept: */*')).toBe(
      `Host: a\nAuthorization: ${R}\nAccept: */*`,
    );
    expect(redactText('sent Bearer abcdefghijklmnop to it')).toBe(`sent Bearer ${R} to it`);
    expect(redactText('token ghp_0123456789abcdefghijABCDEFGHIJ leaked')).toContain(R);
    expect(redactText('token ghp_0123456789abcdefghijABCDEFGHIJ leaked')).not.toContain('ghp_0123');
  });

  it('redacts registered secrets, also URL-encoded', () => {
    registerSecret('a b/c+d-secret');
    expect(redactText(`raw a b/c+d-secret, encoded ${encodeURIComponent('a b/c+d-secret')}`)).toBe(
      `raw ${R}, encoded ${R}`,
    );
  });

  it('leaves ordinary text as it is', () => {
    const text = 'TfL answered 503 Service Unavailable for Bank to Mile End';
    expect(redactText(text)).toBe(text);
  });
});

describe('redactHeaders', () => {
  it('replaces every secret header value and lower-cases names', () => {
    const input: Record<string, string> = { Accept: 'application/json' };
    for (const name of SECRET_HEADERS) input[name.toUpperCase()] = 'value-that-is-secret';
    const out = redactHeaders(input);
    expect(out.accept).toBe('application/json');
    for (const name of SECRET_HEADERS) expect(out[name]).toBe(R);
  });

  it('redacts the credential headers each upstream uses, by name', () => {
    const names = [
      'Authorization',
      'digitransit-subscription-key',
      'Ocp-Apim-Subscription-Key',
      'app_key',
      'Cookie',
    ];
    const out = redactHeaders(Object.fromEntries(names.map((name) => [name, 'named-secret-2'])));
    expect(Object.values(out)).toEqual(names.map(() => R));
  });

  it('handles Headers objects, arrays, undefined and credential-looking names', () => {
    const headers = new Headers({ 'x-auth-token': 'abc', 'user-agent': 'switchyard', referer: '/x?key=k1' });
    expect(redactHeaders(headers)).toEqual({
      'x-auth-token': R,
      'user-agent': 'switchyard',
      referer: `/x?key=${R}`,
    });
    expect(redactHeaders({ 'set-cookie': ['a=1', 'b=2'], via: ['1.1 a', '1.1 b'], gone: undefined })).toEqual(
      {
        'set-cookie': R,
        via: '1.1 a, 1.1 b',
      },
    );
  });
});

describe('redactError', () => {
  it('returns a redacted copy: message, stack, cause chain and own properties; the original is untouched', () => {
    const url = 'https://api.tfl.gov.uk/x?app_key=KEY-123456';
    const inner = new Error(`connect failed for ${url}`);
    const error = Object.assign(new TypeError(`fetch ${url}`, { cause: inner }), {
      url,
      request: new Request(url, { headers: { 'x-api-key': 'KEY-123456' } }),
      response: new Response('no', { status: 500 }),
      headers: new Headers({ authorization: 'Bearer KEY-123456' }),
      config: { params: { key: 'KEY-123456' }, nested: [{ token: 'KEY-123456' }] },
    });
    const copy = redactError(error);
    expect(copy).not.toBe(error);
    expect(copy).toBeInstanceOf(TypeError);
    expect(copy.message).toBe(`fetch https://api.tfl.gov.uk/x?app_key=${R}`);
    expect(copy.stack).not.toContain('KEY-123456');
    expect((copy.cause as Error).message).toBe(`connect failed for https://api.tfl.gov.uk/x?app_key=${R}`);
    expect(copy.request).toEqual({ method: 'GET', url: `https://api.tfl.gov.uk/x?app_key=${R}` });
    expect(copy.response).toMatchObject({ status: 500 });
    expect(copy.headers).toEqual({ authorization: R });
    expect(JSON.stringify(copy.config)).not.toContain('KEY-123456');
    expect(error.message).toContain('KEY-123456');
  });

  it('keeps SwitchyardError fields, DOMException names and survives cycles', () => {
    const error = new SwitchyardError('upstream-error', 'boom ?token=abc', {
      code: 'X',
      upstreamStatus: 502,
    });
    const copy = redactError(error);
    expect(copy).toBeInstanceOf(SwitchyardError);
    expect(copy.kind).toBe('upstream-error');
    expect(copy.code).toBe('X');
    expect(copy.upstreamStatus).toBe(502);
    expect(copy.message).toBe(`boom ?token=${R}`);

    const abort = redactError(new DOMException('stopped ?key=abc', 'AbortError'));
    expect(abort.name).toBe('AbortError');
    expect(abort.message).toBe(`stopped ?key=${R}`);

    const cyclic = new Error('a') as Error & { self?: unknown };
    cyclic.self = cyclic;
    cyclic.cause = cyclic;
    const cyclicCopy = redactError(cyclic);
    expect(cyclicCopy.self).toBe(cyclicCopy);
  });

  it('redacts strings and passes other primitives through', () => {
    expect(redactError('x?api_key=1')).toBe(`x?api_key=${R}`);
    expect(redactError(42)).toBe(42);
    expect(redactError(undefined)).toBeUndefined();
  });
});

import http from 'node:http';

export interface RawHttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawHttpRequest {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * A plain HTTP request for tests of the HTTP layer: it may set any header (fetch refuses Host), uses no
 * keep-alive agent, and reads the whole answer as text.
 */
export function rawHttpRequest(url: string, options: RawHttpRequest = {}): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A server may answer (413) and close before the whole body is sent: that answer is the result.
      const cutShort = error.code === 'EPIPE' || error.code === 'ECONNRESET';
      if (!cutShort) reject(error);
      else req.once('close', () => answered || reject(error));
    });
    req.end(options.body);
  });
}

'use strict';
const http = require('node:http');

/** A small keep-alive JSON client (lower overhead than fetch for the paced loaders). */
class JsonClient {
  constructor(baseUrl, token, maxSockets = 16) {
    this.base = new URL(baseUrl);
    this.token = token;
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(method, path, body, extraHeaders = {}) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept: 'application/json', ...extraHeaders };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: this.base.hostname, port: this.base.port, method, path, headers, agent: this.agent },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* not JSON: keep the text */
            }
            resolve({ status: res.statusCode, body: parsed, headers: res.headers });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get(path) {
    return this.request('GET', path);
  }
  post(path, body) {
    return this.request('POST', path, body);
  }

  /** The body of a 2xx answer, or an error naming what went wrong. */
  async expectOk(method, path, body) {
    const res = await this.request(method, path, body);
    if (res.status < 200 || res.status >= 300) {
      throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  }

  close() {
    this.agent.destroy();
  }
}

module.exports = { JsonClient };

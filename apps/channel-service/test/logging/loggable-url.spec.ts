import { loggableUrl } from '../../src/logging/request-log';

describe('loggableUrl: a credential-looking query value is never logged', () => {
  it('replaces the value of every credential-looking name, as the query parser reads the name', () => {
    expect(loggableUrl('/api/v1/channels?token=qh_1&access_token=qh_2&api_key=k&afterSeq=3')).toBe(
      '/api/v1/channels?token=[redacted]&access_token=[redacted]&api_key=[redacted]&afterSeq=3',
    );
    // Percent-encoded or plus-spelt names are the same names to the parser.
    expect(loggableUrl('/api/v1/channels?tok%65n=qh_1&my+secret=s&limit=5')).toBe('/api/v1/channels?tok%65n=[redacted]&my+secret=[redacted]&limit=5');
    // A raw '#' in the request line does not end the value for the log.
    expect(loggableUrl('/api/v1/channels?token=P1#qh_rest')).toBe('/api/v1/channels?token=[redacted]');
    for (const name of ['bearer', 'jwt', 'sig', 'signature', 'password', 'session_id']) {
      expect(loggableUrl(`/x?${name}=v`)).toBe(`/x?${name}=[redacted]`);
    }
  });

  it('replaces a search query, which may quote messages (DESIGN §13: no content in a log)', () => {
    expect(loggableUrl('/api/v1/search?q=sk-live-123%20key&channel=ops&limit=5')).toBe('/api/v1/search?q=[redacted]&channel=ops&limit=5');
    expect(loggableUrl('/api/v1/search?Q=x')).toBe('/api/v1/search?Q=[redacted]');
    expect(loggableUrl('/api/v1/channels?quota=1')).toBe('/api/v1/channels?quota=1');
  });

  it('leaves other URLs as they are (an undecodable name is matched as sent)', () => {
    expect(loggableUrl('/api/v1/channels/a/messages')).toBe('/api/v1/channels/a/messages');
    expect(loggableUrl('/api/v1/channels?afterSeq=1&limit=2&flag')).toBe('/api/v1/channels?afterSeq=1&limit=2&flag');
    expect(loggableUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
  });
});

import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const REASONS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request line and headers exceed 16 KB'],
};

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers or URL over 16 KB,
 * malformed request lines) still get the one error shape, `{"error": "..."}`, instead of
 * Node's bare status line, and the sandbox's version like every other answer.
 */
export function answerClientErrors(server: Server, version: string): Server {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, message] = REASONS[err.code ?? ''] ?? [
      400,
      'Bad Request',
      'Malformed HTTP request',
    ];
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Sandbox-Version: ${version}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

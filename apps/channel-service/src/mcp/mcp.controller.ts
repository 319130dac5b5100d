import { Controller, Delete, Get, HttpStatus, Logger, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiMethodNotAllowedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { JSON_RPC_ERRORS, jsonRpcError, JsonRpcErrorBody } from '../common/json-rpc-error';
import { ANSWERS_405_ONLY } from '../common/method-not-allowed';
import { JsonRpcResponse } from './dto/json-rpc.response';
import { invalidEnvelopeAnswer, withoutSdkPrefix } from './json-rpc-envelope';
import { invalidParamsAnswer } from './json-rpc-params';
import { McpCancellations } from './mcp-cancellations';
import { McpServerFactory } from './mcp-server.factory';

function writeJsonRpc(res: ServerResponse, status: number, body: JsonRpcErrorBody | JsonRpcErrorBody[], headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers without the transport: Fastify hands the raw response over, as the transport needs it. */
function answer(reply: FastifyReply, status: number, body: JsonRpcErrorBody | JsonRpcErrorBody[], headers: Record<string, string> = {}): void {
  reply.hijack();
  writeJsonRpc(reply.raw, status, body, headers);
}

/**
 * MCP over Streamable HTTP at POST /mcp (outside the API prefix), stateless: a new server and
 * transport per request, so no session ties a client to an instance. The global AuthGuard has
 * already authenticated the bearer token (401 without one), exactly as for REST.
 */
@ApiTags('mcp')
@ApiBearerAuth()
@Controller('mcp')
export class McpController {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly servers: McpServerFactory,
    private readonly cancellations: McpCancellations,
  ) {}

  @Post()
  @ApiOperation({ summary: 'MCP JSON-RPC over Streamable HTTP (stateless); tools/list names the tools' })
  @ApiOkResponse({ type: JsonRpcResponse, description: 'The JSON-RPC answer (an MCP result or a JSON-RPC error)' })
  async handle(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @CurrentPrincipal() by: Principal): Promise<void> {
    if (req.body === undefined) {
      return answer(reply, HttpStatus.BAD_REQUEST, jsonRpcError(JSON_RPC_ERRORS.parseError, 'Parse error: the body is empty; POST a JSON-RPC message'));
    }
    const notJsonRpc = invalidEnvelopeAnswer(req.body);
    if (notJsonRpc) return answer(reply, HttpStatus.BAD_REQUEST, notJsonRpc);
    const invalid = invalidParamsAnswer(req.body);
    if (invalid) return answer(reply, HttpStatus.OK, invalid); // a method's error, answered as the SDK answers "method not found"

    await this.cancellations.listen();
    const cancel = this.cancellations.track(by, req.body);
    const server = this.servers.create(by, cancel.signal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(withoutSdkPrefix(message), options);
    // The transport writes the raw response itself: Fastify must not send anything.
    reply.hijack();
    reply.raw.on('close', () => {
      cancel.done();
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      this.logger.error({ err }, 'MCP request failed');
      if (!reply.raw.headersSent) writeJsonRpc(reply.raw, HttpStatus.INTERNAL_SERVER_ERROR, jsonRpcError(JSON_RPC_ERRORS.internalError, 'Internal server error'));
    }
  }

  /** No standalone SSE stream in stateless mode (clients fall back to POST responses). */
  @Get()
  @RouteConfig(ANSWERS_405_ONLY)
  @ApiMethodNotAllowedResponse({ type: JsonRpcResponse, description: 'Stateless: POST JSON-RPC requests instead' })
  getNotAllowed(@Res() reply: FastifyReply): void {
    this.methodNotAllowed(reply);
  }

  /** No session to delete in stateless mode. */
  @Delete()
  @RouteConfig(ANSWERS_405_ONLY)
  @ApiMethodNotAllowedResponse({ type: JsonRpcResponse, description: 'Stateless: no session to delete' })
  deleteNotAllowed(@Res() reply: FastifyReply): void {
    this.methodNotAllowed(reply);
  }

  private methodNotAllowed(reply: FastifyReply): void {
    const body = jsonRpcError(JSON_RPC_ERRORS.serverError, 'Method not allowed: this MCP server is stateless; POST JSON-RPC requests to /mcp');
    answer(reply, HttpStatus.METHOD_NOT_ALLOWED, body, { allow: 'POST' });
  }
}

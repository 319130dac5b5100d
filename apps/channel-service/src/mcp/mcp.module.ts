import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ChannelsModule } from '../channels/channels.module';
import { BusModule } from '../bus/bus.module';
import { MessagesModule } from '../messages/messages.module';
import { ProjectionModule } from '../projection/projection.module';
import { SearchModule } from '../search/search.module';
import { SummaryModule } from '../summary/summary.module';
import { ThreadsModule } from '../threads/threads.module';
import { ChannelResources } from './channel-resources';
import { McpCancellations } from './mcp-cancellations';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { AgentTools } from './tools/agent.tools';
import { ChannelTools } from './tools/channel.tools';
import { ContextTools } from './tools/context.tools';
import { SearchTools } from './tools/search.tools';
import { MessageTools } from './tools/message.tools';
import { SummaryTools } from './tools/summary.tools';
import { ThreadTools } from './tools/thread.tools';

/** The agents' MCP surface: the same services as REST behind snake_case tools. */
@Module({
  imports: [AuthModule, BusModule, ChannelsModule, MessagesModule, SummaryModule, ProjectionModule, ThreadsModule, SearchModule],
  controllers: [McpController],
  providers: [AgentTools, ChannelTools, MessageTools, SummaryTools, ContextTools, ThreadTools, SearchTools, ChannelResources, McpServerFactory, McpCancellations],
})
export class McpModule {}

import { Module } from '@nestjs/common';
import { MessageReadsRepository } from './message-reads.repository';

/** The stored messages as the features below posting read them (stateless over the global Database). */
@Module({
  providers: [MessageReadsRepository],
  exports: [MessageReadsRepository],
})
export class MessageStoreModule {}

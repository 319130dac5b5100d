import { THREAD_STATUSES, ThreadStatus } from '@qhorus/api';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../common/page.query';

export class ListThreadsQuery extends PageQuery {
  /** Only threads in this status: open, answered, done, declined or failed (default: all). */
  @IsOptional()
  @IsIn(THREAD_STATUSES)
  status?: ThreadStatus;
}

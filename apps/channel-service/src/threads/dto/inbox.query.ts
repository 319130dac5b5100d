import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ConfiguredMax } from '../../common/configured-limit';
import { queryInt } from '../../common/query-transforms';

/** `GET /inbox`: a page of the caller's open obligations, or a long poll for a change. */
export class InboxQuery {
  /** At most this many obligations, oldest first (default QHORUS_PAGE_LIMIT_DEFAULT; above QHORUS_PAGE_LIMIT_MAX a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_PAGE_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;

  /**
   * Long poll: wait up to this long (ms; at most QHORUS_LONG_POLL_MAX_MS) for the inbox to differ
   * from the one `If-None-Match` names (an empty inbox without it); at the deadline it answers
   * 304 when it is still that one.
   */
  @ConfiguredMax('QHORUS_LONG_POLL_MAX_MS')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  waitMs?: number;
}

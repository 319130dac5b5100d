/**
 * Accumulates whole lines under a hard character cap. A line that does not fit is refused, never
 * cut, so a bounded report never ends mid-line; callers decide what to say about what was left out.
 */
export class BoundedTextBuilder {
  private readonly lines: string[] = [];
  /** Characters used so far, counting one separator per line (so the joined text is ≤ cap). */
  private used = 0;

  constructor(private readonly cap: number) {}

  /** Characters still available for lines, separators included. */
  get remaining(): number {
    return this.cap - this.used;
  }

  /** What adding `line` costs against the cap. */
  static cost(line: string): number {
    return line.length + 1;
  }

  tryAdd(line: string): boolean {
    const cost = BoundedTextBuilder.cost(line);
    if (cost > this.remaining) return false;
    this.lines.push(line);
    this.used += cost;
    return true;
  }

  toString(): string {
    return this.lines.join('\n');
  }
}

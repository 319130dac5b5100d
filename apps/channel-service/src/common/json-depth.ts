/**
 * True when `value` nests objects/arrays more than `maxDepth` levels (`{}` is depth 1).
 * Iterative, and it stops at the first branch too deep, so a hostile body cannot blow the
 * stack here the way it would in recursive code further down (validation, serialisation).
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

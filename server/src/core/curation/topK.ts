// The first k items of a stream in a fixed order, and how many there were: what a health section
// shows (its count and top rows) without making a row for every memory and sorting them all
// (at 20,000 memories the rows and sorts of the cold and verification sections were most of the
// report). With a total order (ties broken by id) the rows are exactly those a full sort gives.

export class TopK<T> {
  /** Items offered. */
  count = 0;
  private best: T[] = [];

  /** `order(a, b)` < 0: a comes first (a sort's comparator). */
  constructor(
    private readonly k: number,
    private readonly order: (a: T, b: T) => number,
  ) {}

  add(x: T): void {
    this.count++;
    const best = this.best;
    if (this.k <= 0 || (best.length === this.k && this.order(x, best[best.length - 1]!) >= 0)) return;
    let i = best.length === this.k ? best.length - 1 : best.length;
    while (i > 0 && this.order(x, best[i - 1]!) < 0) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = x;
  }

  /** The first k, in order. */
  rows(): T[] {
    return [...this.best];
  }
}

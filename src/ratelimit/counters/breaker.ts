/** When a circuit breaker opens, and for how long before it tries the dependency again. */
export interface BreakerOptions {
  /** Failures in a row that open it. */
  failuresToOpen: number;
  /** How long it stays open before one probe may try the dependency. */
  openMs: number;
  /** The clock, in milliseconds (tests move it instead of waiting). */
  now?: () => number;
}

/**
 * A circuit breaker for a dependency that may stall rather than fail: after `failuresToOpen` calls in a row
 * failed (timed out), it opens, and callers go without the dependency at once instead of each waiting for the
 * timeout. After `openMs`, one probe may try it: its success closes the breaker, its failure opens it again.
 */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;
  readonly #options: Required<BreakerOptions>;

  constructor(options: BreakerOptions) {
    this.#options = { now: Date.now, ...options };
  }

  get isOpen(): boolean {
    return this.#openedAt !== undefined;
  }

  /**
   * While open, whether the time has come for a probe; answers true once per probe (the caller runs it and
   * reports the outcome with `succeeded` or `failed`).
   */
  probeDue(): boolean {
    if (this.#openedAt === undefined || this.#probing) return false;
    if (this.#options.now() - this.#openedAt < this.#options.openMs) return false;
    this.#probing = true;
    return true;
  }

  /** Answers true when this success closed the breaker. */
  succeeded(): boolean {
    const wasOpen = this.isOpen;
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
    return wasOpen;
  }

  /** Answers true when this failure opened the breaker (not when a probe kept it open). */
  failed(): boolean {
    this.#failures++;
    const wasOpen = this.isOpen;
    if (this.#probing || this.#failures >= this.#options.failuresToOpen) this.#openedAt = this.#options.now();
    this.#probing = false;
    return !wasOpen && this.isOpen;
  }
}

package dev.weir.engine.model;

/**
 * The three window shapes of DESIGN.md, as seen by the test-only reference model.
 * Test-only; shares no code with the engine.
 */
public enum WindowKind
{
    /** {@code [s, s + size)} with {@code s = t - (t mod size)}. */
    TUMBLING,
    /** Every {@code [s, s + size)} with {@code s} a multiple of {@code slide} and {@code s <= t < s + size}. */
    SLIDING,
    /** Each event opens {@code [t, t + gap)}; windows of one key that overlap or touch merge. */
    SESSION
}

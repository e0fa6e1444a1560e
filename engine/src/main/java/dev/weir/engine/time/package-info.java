/**
 * Event time: the watermark ({@code max(event_time - D)}), allowed lateness and the late policy, as
 * DESIGN.md defines them; and durations as text ({@link dev.weir.engine.time.DurationText}: {@code 10s}, {@code 5m}).
 * <p>
 * Threading: a {@link dev.weir.engine.time.Watermark} is owned by the window stage's thread; the policies are
 * immutable.
 * <p>
 * Depends on nothing in Weir.
 */
package dev.weir.engine.time;

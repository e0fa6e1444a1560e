/**
 * Event time: the watermark ({@code max(event_time - D)}), allowed lateness and the late policy, as
 * DESIGN.md defines them.
 * <p>
 * Threading: a {@link dev.weir.engine.time.Watermark} is owned by the window stage's thread; the policies are
 * immutable.
 * <p>
 * Depends on nothing in Weir.
 */
package dev.weir.engine.time;

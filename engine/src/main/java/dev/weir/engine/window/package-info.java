/**
 * Window assignment, the first engine stage: an event time maps to its windows (tumbling, sliding,
 * session), as pure, allocation-free functions of the time and the spec.
 * <p>
 * Threading: immutable specs; safe from any thread.
 * <p>
 * Depends on {@code dev.weir.engine.time} only to read and write durations as text ({@link dev.weir.engine.window.WindowSpec#parse},
 * {@link dev.weir.engine.window.WindowSpec#text()}).
 */
package dev.weir.engine.window;

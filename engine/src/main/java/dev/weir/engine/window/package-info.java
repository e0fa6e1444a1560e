/**
 * Window assignment, the first engine stage: an event time maps to its windows (tumbling, sliding,
 * session), as pure, allocation-free functions of the time and the spec.
 * <p>
 * Threading: immutable specs; safe from any thread.
 * <p>
 * Depends on nothing in Weir.
 */
package dev.weir.engine.window;

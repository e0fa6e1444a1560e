/**
 * Window state in primitive arrays: one slot per open (key, window), the per-key window index, the firing
 * schedule threaded through the slots, session start chains, and the ids remembered for dedupe. No boxing,
 * no allocation per event once a key and its windows exist.
 * <p>
 * Threading: owned by the window stage's thread (single writer); read by the checkpointer on that same
 * thread, between two events.
 * <p>
 * Depends on {@code aggregate} only.
 */
package dev.weir.engine.state;

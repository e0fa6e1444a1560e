/**
 * Window state in primitive arrays: one slot per open (key, window) ({@code WindowSlots}), the per-key index
 * of aligned windows ({@code KeyWindowIndex}), their chains by window start ({@code StartChains}, linked
 * through the slots), the heap of pending timers ({@code FiringSchedule}), and the ids remembered for dedupe
 * ({@code DuplicateFilter}). No boxing, no allocation per event once a key and its windows exist; every
 * size that could overflow an int is bounded and checked.
 * <p>
 * Threading: owned by the window stage's thread (single writer); read by the checkpointer on that same
 * thread, between two events.
 * <p>
 * Depends on {@code aggregate} only.
 */
package dev.weir.engine.state;

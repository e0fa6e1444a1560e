/**
 * What the operator emits: {@link dev.weir.engine.emit.WindowResult} and
 * {@link dev.weir.engine.emit.LateEvent} flyweights, the listeners that receive them, and
 * {@link dev.weir.engine.emit.OutputJournalSink}, which appends them to the output journal exactly once
 * (verifying and suppressing those a recovery reproduces) before handing them to the listeners.
 * <p>
 * Threading: called on the last stage's thread; a flyweight is valid only during the callback. The
 * listener and flyweight types are public API; the sink is internal.
 * <p>
 * Depends on {@code dev.weir.journal} only.
 */
package dev.weir.engine.emit;
